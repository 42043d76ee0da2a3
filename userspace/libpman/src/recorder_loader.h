// Starting and stopping a flight recorder: the probe variant that writes
// into an overwrite ring, loaded, attached and pinned so that it keeps
// running after the process that started it exits.
#ifndef KESTREL_LIBPMAN_RECORDER_LOADER_H_
#define KESTREL_LIBPMAN_RECORDER_LOADER_H_

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "libpman_recorder.h"
#include "logger.h"
#include "recorder_inspect.h"

namespace kestrel::pman {

// On failure nothing is left pinned or loaded.
absl::Status StartRecorder(const pman_recorder_options& options, const Logger& logger);

// Removes the recorder, or the remains of a start that was interrupted (the
// state says which), once every pin in its directory is proven ours;
// otherwise removes nothing.
absl::StatusOr<RecorderState> StopRecorder(const pman_recorder_options& options,
                                           const Logger& logger);

}  // namespace kestrel::pman

#endif  // KESTREL_LIBPMAN_RECORDER_LOADER_H_
