// The probe `kestrel capture` and `kestrel stats` load, from their flags.
#ifndef KESTREL_CLI_CAPTURE_PROBE_H_
#define KESTREL_CLI_CAPTURE_PROBE_H_

#include "agent/probe/probe_loader.h"
#include "kestrel/capture/capture_options.h"

namespace kestrel::cli {

using agent::HandlePtr;

// Loads and attaches the probe `options` ask for; libpman's warnings and
// errors go to stderr. Once attached, unless `command` is null, says so on
// stderr as `kestrel <command>: attached in ...`. Null on failure.
HandlePtr LoadProbe(const CaptureOptions& options, const char* command);

}  // namespace kestrel::cli

#endif  // KESTREL_CLI_CAPTURE_PROBE_H_
