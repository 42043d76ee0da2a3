// Loads and attaches the probe the way a command's options ask for.
#ifndef KESTREL_CLI_PROBE_LOADER_H_
#define KESTREL_CLI_PROBE_LOADER_H_

#include <memory>

#include "capture_options.h"
#include "libpman.h"

namespace kestrel::cli {

struct HandleCloser {
  void operator()(pman_handle* h) const { pman_close(h); }
};
using HandlePtr = std::unique_ptr<pman_handle, HandleCloser>;

// Loads the probe configured for `options`, pins it (--pin, --pin-dir) and
// locks its settings (--lock-settings), then attaches it. libpman prints
// why on failure (warnings and errors go to stderr) and the result is null,
// with nothing left loaded or pinned. Once attached, unless `command` is
// null, it says so on stderr as `kestrel <command>: attached in ...`, with the time since the load
// began and what the verifier checked.
// KESTREL_LOAD_ALL_FILLERS=1 (a debug switch, for the startup bench) loads
// every filler up front (PMAN_OPT_LOAD_ALL_FILLERS).
HandlePtr LoadProbe(const CaptureOptions& options, const char* command);

}  // namespace kestrel::cli

#endif  // KESTREL_CLI_PROBE_LOADER_H_
