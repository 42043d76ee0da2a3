// Command-line options of `kestrel bench`.
#ifndef KESTREL_TOOLS_BENCH_BENCH_OPTIONS_H_
#define KESTREL_TOOLS_BENCH_BENCH_OPTIONS_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace kestrel::cli::bench {

struct BenchOptions {
  std::vector<std::string> modes;  // in run order; "all" already expanded
  bool json = false;
  int repetitions = 5;
};

// Parses the arguments that follow `kestrel bench`. Errors name the flag.
absl::StatusOr<BenchOptions> ParseBenchOptions(const std::vector<std::string>& args);

extern const char kBenchUsage[];

}  // namespace kestrel::cli::bench

#endif  // KESTREL_TOOLS_BENCH_BENCH_OPTIONS_H_
