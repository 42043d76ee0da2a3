// Starting and stopping a flight recorder: the probe variant that writes
// into an overwrite ring, loaded, attached and pinned so that it keeps
// running after the process that started it exits.
#ifndef KESTREL_LIBPMAN_RECORDER_LOADER_H_
#define KESTREL_LIBPMAN_RECORDER_LOADER_H_

#include "absl/status/status.h"
#include "libpman_recorder.h"
#include "logger.h"

namespace kestrel::pman {

// On failure nothing is left pinned or loaded.
absl::Status StartRecorder(const pman_recorder_options& options, const Logger& logger);

absl::Status StopRecorder(const pman_recorder_options& options, const Logger& logger);

}  // namespace kestrel::pman

#endif  // KESTREL_LIBPMAN_RECORDER_LOADER_H_
