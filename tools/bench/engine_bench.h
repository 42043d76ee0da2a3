// `kestrel bench engine`: what the engine takes per event on one core,
// replaying a stored stream of real records (stored_stream.h).
#ifndef KESTREL_TOOLS_BENCH_ENGINE_BENCH_H_
#define KESTREL_TOOLS_BENCH_ENGINE_BENCH_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "bench/bench_report.h"

namespace kestrel::bench {

struct EngineBenchOptions {
  uint64_t events = 2'000'000;  // records in the stored stream
  int repetitions = 5;          // passes per stage; the median is reported
  bool state = false;           // also the stages with the engine's state and rules
  // Rules files for the rules rows (Falco's stable rules): the base the
  // generated rules are added to. Empty: Kestrel's default rules are.
  std::string rules_file;
  bool rule_by_rule = false;  // rules evaluated one after the other, not indexed
  bool live = false;          // with state: the live rows (live_rules_bench.h)
};

// Rows, each events/s over the same stream in one thread, stages
// interleaved per repetition: decode only; decode + state (threads and
// descriptors); decode + state + evaluating representative conditions.
// With state, rows for rules through `kestrel run`'s pipeline: Kestrel's
// default rules, `rules_file`, and that base plus 1,000 rules on absent
// event types, plus 100 and 1,000 non-matching openat rules; and the RSS.
// The state row is judged against 2x libsinsp's parsing-and-state rate
// (Falco 0.63 on this machine class) and against half the decode rate.
absl::StatusOr<BenchReport> RunEngineBench(const EngineBenchOptions& options);

}  // namespace kestrel::bench

#endif  // KESTREL_TOOLS_BENCH_ENGINE_BENCH_H_
