// The live rows of `kestrel bench engine --live` (issue 20): openat+close
// in two threads of one process, one pinned per CPU, and then in one
// process per CPU, alone and under `kestrel run` with the base rules,
// interleaved; how much slower each load runs and what the probe dropped
// meanwhile. Falco 0.63 under its stable rules, two threads: 2.35x slower,
// 9-23% of events dropped. And the records lost while the rules reload
// under that load (issue 35: none).
#ifndef KESTREL_TOOLS_BENCH_LIVE_RULES_BENCH_H_
#define KESTREL_TOOLS_BENCH_LIVE_RULES_BENCH_H_

#include <string>

#include "absl/status/status.h"
#include "bench/bench_report.h"

namespace kestrel::bench {

// Adds the three live rows to `report`: `repetitions` pairs of runs of
// `seconds` each, `rules` (a file or folder) named `rules_name`.
absl::Status AddLiveRulesRows(BenchReport& report, const std::string& rules,
                              const std::string& rules_name, int repetitions, double seconds);

}  // namespace kestrel::bench

#endif  // KESTREL_TOOLS_BENCH_LIVE_RULES_BENCH_H_
