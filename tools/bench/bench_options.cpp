#include "bench/bench_options.h"

#include <algorithm>
#include <array>
#include <string_view>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"

namespace kestrel::cli::bench {
namespace {

constexpr std::array<std::string_view, 5> kModes = {"overhead", "throughput", "settings", "rings",
                                                    "recorder"};
constexpr int kMaxRepetitions = 1000;

}  // namespace

const char kBenchUsage[] =
    "usage: kestrel bench [overhead|throughput|settings|rings|recorder|all]... [--json]\n"
    "                     [--repetitions N]\n"
    "  Measures the probe side by side with reference floors and installed peers.\n"
    "  Every figure is the median of N paired repetitions (default 5).\n";

absl::StatusOr<BenchOptions> ParseBenchOptions(const std::vector<std::string>& args) {
  BenchOptions options;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--json") {
      options.json = true;
    } else if (arg == "--repetitions") {
      if (i + 1 == args.size()) return absl::InvalidArgumentError("--repetitions needs a value");
      int n = 0;
      if (!absl::SimpleAtoi(args[++i], &n) || n < 1 || n > kMaxRepetitions) {
        return absl::InvalidArgumentError(absl::StrFormat(
            "--repetitions: \"%s\" is not a count from 1 to %d", args[i], kMaxRepetitions));
      }
      options.repetitions = n;
    } else if (arg == "all") {
      options.modes.assign(kModes.begin(), kModes.end());
    } else if (std::find(kModes.begin(), kModes.end(), arg) != kModes.end()) {
      if (std::find(options.modes.begin(), options.modes.end(), arg) == options.modes.end()) {
        options.modes.push_back(arg);
      }
    } else {
      return absl::InvalidArgumentError(absl::StrFormat("unknown mode or flag \"%s\"", arg));
    }
  }
  if (options.modes.empty()) options.modes.assign(kModes.begin(), kModes.end());
  return options;
}

}  // namespace kestrel::cli::bench
