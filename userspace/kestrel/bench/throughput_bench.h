// `kestrel bench throughput`: events delivered per second before and after
// drops start, for shared and per-CPU rings, the consumer's CPU cost, a
// starved reader, and the reader's memory.
#ifndef KESTREL_CLI_BENCH_THROUGHPUT_BENCH_H_
#define KESTREL_CLI_BENCH_THROUGHPUT_BENCH_H_

#include "absl/status/statusor.h"
#include "bench_report.h"

namespace kestrel::cli::bench {

absl::StatusOr<BenchReport> RunThroughputBench(int repetitions);

}  // namespace kestrel::cli::bench

#endif  // KESTREL_CLI_BENCH_THROUGHPUT_BENCH_H_
