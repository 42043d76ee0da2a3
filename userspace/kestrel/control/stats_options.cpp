#include "kestrel/control/stats_options.h"

namespace kestrel::cli {

void DefineStatsOptions(CLI::App& app, CaptureOptions& options) {
  DefineProbeOptions(app, options);
}

}  // namespace kestrel::cli
