// `kestrel bench rings`: shared versus per-CPU rings under two load threads
// and one consumer, against the ring buffer's own ceiling measured with a
// minimal producer program.
#ifndef KESTREL_TOOLS_BENCH_RINGS_BENCH_H_
#define KESTREL_TOOLS_BENCH_RINGS_BENCH_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "bench/bench_report.h"

namespace kestrel::bench {

struct RingsBenchOptions {
  double seconds_per_run = 1.0;
  int repetitions = 3;            // the report keeps the median
  uint64_t ring_bytes = 8 << 20;  // per ring, every configuration
  uint32_t raw_batch = 32;        // records per trigger for the batched ceiling
};

absl::StatusOr<BenchReport> RunRingsBench(const RingsBenchOptions& options);

}  // namespace kestrel::bench

#endif  // KESTREL_TOOLS_BENCH_RINGS_BENCH_H_
