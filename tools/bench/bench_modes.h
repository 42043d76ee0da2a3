// The entry points of the `kestrel bench` modes built in this tree, one
// implementation file each. Every mode returns rows of medians measured side
// by side in one run.
#ifndef KESTREL_TOOLS_BENCH_BENCH_MODES_H_
#define KESTREL_TOOLS_BENCH_BENCH_MODES_H_

#include "absl/status/statusor.h"
#include "bench/bench_report.h"

namespace kestrel::bench {

// overhead_bench.cpp: what the probe adds to every syscall, against the
// floors any tracer pays and against installed peers.
absl::StatusOr<BenchReport> RunOverheadBench(int repetitions);

// throughput_bench.cpp: events delivered per second before and after drops
// start, for shared and per-CPU rings, the consumer's CPU cost, a starved
// reader, and the reader's memory.
absl::StatusOr<BenchReport> RunThroughputBench(int repetitions);

}  // namespace kestrel::bench

#endif  // KESTREL_TOOLS_BENCH_BENCH_MODES_H_
