// `kestrel bench overhead`: what the probe adds to every syscall, against
// the floors any tracer pays and against installed peers.
#ifndef KESTREL_CLI_BENCH_OVERHEAD_BENCH_H_
#define KESTREL_CLI_BENCH_OVERHEAD_BENCH_H_

#include "absl/status/statusor.h"
#include "bench_report.h"

namespace kestrel::cli::bench {

absl::StatusOr<BenchReport> RunOverheadBench(int repetitions);

}  // namespace kestrel::cli::bench

#endif  // KESTREL_CLI_BENCH_OVERHEAD_BENCH_H_
