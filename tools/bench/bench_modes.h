// The entry points of the `kestrel bench` modes built in this tree, one
// implementation file each. Every mode returns rows of medians measured side
// by side in one run.
#ifndef KESTREL_TOOLS_BENCH_BENCH_MODES_H_
#define KESTREL_TOOLS_BENCH_BENCH_MODES_H_

#include <string>

#include "absl/status/statusor.h"
#include "bench/bench_report.h"

namespace kestrel::bench {

struct OverheadBenchOptions {
  int repetitions = 5;
  // The rules whose syscall set the attachment rows load (Falco's stable
  // rules for issue 40's figures); empty: Kestrel's own rules.
  std::string rules_file;
};

// overhead_bench.cpp: what the probe adds to every syscall, against the
// floors any tracer pays and against installed peers, and what a syscall
// outside a rules' set pays under each attachment.
absl::StatusOr<BenchReport> RunOverheadBench(const OverheadBenchOptions& options);

// throughput_bench.cpp: events delivered per second before and after drops
// start, for shared and per-CPU rings, the consumer's CPU cost, a starved
// reader, and the reader's memory.
absl::StatusOr<BenchReport> RunThroughputBench(int repetitions);

}  // namespace kestrel::bench

#endif  // KESTREL_TOOLS_BENCH_BENCH_MODES_H_
