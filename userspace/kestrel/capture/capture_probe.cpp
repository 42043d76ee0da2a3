#include "kestrel/capture/capture_probe.h"

#include <cstdio>
#include <string>

#include "kestrel/common/stderr_log.h"

namespace kestrel::cli {

HandlePtr LoadProbe(const CaptureOptions& options, const char* command) {
  agent::ProbeStart start = options;  // the probe's part
  start.log_fn = LogToStderr;
  start.log_ctx = CommandLogContext("kestrel");
  std::string attached;
  HandlePtr handle = agent::LoadProbe(start, command != nullptr ? &attached : nullptr);
  if (handle && command != nullptr)
    std::fprintf(stderr, "kestrel %s: %s\n", command, attached.c_str());
  return handle;
}

}  // namespace kestrel::cli
