// `kestrel bench settings`: what the mmapped settings cost and save.
#ifndef KESTREL_CLI_BENCH_SETTINGS_BENCH_H_
#define KESTREL_CLI_BENCH_SETTINGS_BENCH_H_

#include "absl/status/statusor.h"
#include "bench/bench_report.h"

namespace kestrel::cli::bench {

// Loads its own probe with no interesting syscall and reports, as medians of
// `repetitions` runs: the cost of one settings change by mmap store against
// bpf_map_update_elem (target: >= 10x cheaper), a whole seqlock publish,
// the ns the attached probe adds to an uninteresting getppid, and the size
// of the program after verification and JIT. Needs CAP_BPF + CAP_PERFMON.
absl::StatusOr<BenchReport> RunSettingsBench(int repetitions);

}  // namespace kestrel::cli::bench

#endif  // KESTREL_CLI_BENCH_SETTINGS_BENCH_H_
