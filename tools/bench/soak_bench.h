// `kestrel bench soak`: `kestrel run` with the default rules under a bounded
// load on every CPU for a long time, sampled once a second. It answers the
// questions a daemon's operator has: does memory plateau, does the thread
// table stay bounded, and does every record the probe attempted end up
// consumed or counted as dropped.
#ifndef KESTREL_TOOLS_BENCH_SOAK_BENCH_H_
#define KESTREL_TOOLS_BENCH_SOAK_BENCH_H_

#include "absl/status/statusor.h"
#include "bench/bench_report.h"

namespace kestrel::bench {

struct SoakBenchOptions {
  double duration_s = 600;
  int rounds_per_second = 200;  // per CPU, see SoakLoadOptions
};

absl::StatusOr<BenchReport> RunSoakBench(const SoakBenchOptions& options);

}  // namespace kestrel::bench

#endif  // KESTREL_TOOLS_BENCH_SOAK_BENCH_H_
