// `kestrel bench startup`: how long the probe takes to be ready, and what
// its verifier time is made of.
#ifndef KESTREL_TOOLS_BENCH_STARTUP_BENCH_H_
#define KESTREL_TOOLS_BENCH_STARTUP_BENCH_H_

#include <string>

#include "absl/status/statusor.h"
#include "bench/bench_report.h"

namespace kestrel::bench {

struct StartupBenchOptions {
  int repetitions = 5;
  // `kestrel run -r FILE`: Falco's stable rules for the figure;
  // empty runs Kestrel's default rules.
  std::string rules_file;
};

// Runs, side by side and alternating, `kestrel capture --syscalls getppid`
// and `kestrel run` with the rules, each with the fillers loaded as the
// syscall set needs them and with every filler loaded at start (the load
// every start paid before), and reports the medians of CPU time and wall
// time from exec to the "attached" line; then, in this process, the
// per-program verification of the run's syscall set and the time from
// enabling a syscall whose filler is not loaded to its first record.
absl::StatusOr<BenchReport> RunStartupBench(const StartupBenchOptions& options);

}  // namespace kestrel::bench

#endif  // KESTREL_TOOLS_BENCH_STARTUP_BENCH_H_
