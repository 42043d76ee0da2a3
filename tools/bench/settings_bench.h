// `kestrel bench settings`: what the mmapped settings cost and save.
#ifndef KESTREL_TOOLS_BENCH_SETTINGS_BENCH_H_
#define KESTREL_TOOLS_BENCH_SETTINGS_BENCH_H_

#include "absl/status/statusor.h"
#include "bench/bench_report.h"

namespace kestrel::bench {

// Loads one probe per settings storage mode (.bss and the mmapable array),
// with no interesting syscall, and reports for each, as medians of
// `repetitions` runs taken side by side in alternating order: the cost of
// one settings change by mmap store against bpf_map_update_elem (target:
// >= 10x cheaper), a whole seqlock publish, the ns the attached probe adds
// to an uninteresting getppid, and the size of the sys_exit fast path after
// verification and JIT; then array/bss ratios. Needs CAP_BPF + CAP_PERFMON.
absl::StatusOr<BenchReport> RunSettingsBench(int repetitions);

}  // namespace kestrel::bench

#endif  // KESTREL_TOOLS_BENCH_SETTINGS_BENCH_H_
