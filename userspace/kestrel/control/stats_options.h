// Command-line options of `kestrel stats`: the probe options of capture,
// without the ones about printing, pinning or stopping on a count.
#ifndef KESTREL_CLI_STATS_OPTIONS_H_
#define KESTREL_CLI_STATS_OPTIONS_H_

#include "CLI/CLI.hpp"
#include "kestrel/capture/capture_options.h"

namespace kestrel::cli {

inline constexpr char kStatsDescription[] =
    "load the probe for a while, then print its rings and counters";

// --duration defaults to this when not given.
inline constexpr double kStatsDefaultSeconds = 1.0;

void DefineStatsOptions(CLI::App& app, CaptureOptions& options);

}  // namespace kestrel::cli

#endif  // KESTREL_CLI_STATS_OPTIONS_H_
