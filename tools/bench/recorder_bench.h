// The flight recorder's write cost, measured against the ring-buffer probe
// in the same run: what `kestrel bench rings` reports as the recorder's rows.
#ifndef KESTREL_TOOLS_BENCH_RECORDER_BENCH_H_
#define KESTREL_TOOLS_BENCH_RECORDER_BENCH_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "bench/bench_report.h"

namespace kestrel::bench {

struct RecorderBenchOptions {
  uint64_t calls_per_rep = 200'000;  // getppid calls per timed repetition
  int reps = 7;                      // the median of these is reported
  uint64_t recorder_bytes = 64ULL << 20;
  // Recorders are pinned under <pin_root>/kestrel-bench-<pid>-* and removed
  // before returning.
  std::string pin_root = "/sys/fs/bpf";
};

// Needs CAP_BPF + CAP_PERFMON. Rows: the ns a record adds to a getppid
// through the ring-buffer probe, a shared-ring recorder and a per-CPU
// recorder (each measured against an unrecorded syscall, so the noise of a
// shared machine cancels out), and the records/s of two threads on two CPUs
// writing into a shared vs a per-CPU recorder (head contention).
absl::StatusOr<BenchReport> RunRecorderBench(const RecorderBenchOptions& options);

}  // namespace kestrel::bench

#endif  // KESTREL_TOOLS_BENCH_RECORDER_BENCH_H_
