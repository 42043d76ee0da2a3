// What a recorder's pin directory holds, judged before anything in it is
// read or removed: a stop must delete only what it can prove a Kestrel
// recorder of this version pinned, and a reader must say what is wrong with
// a directory instead of failing on the first map it cannot use.
#ifndef KESTREL_LIBPMAN_RECORDER_INSPECT_H_
#define KESTREL_LIBPMAN_RECORDER_INSPECT_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "recorder_pins.h"
#include "shared/recorder_format.h"

namespace kestrel::pman {

enum class RecorderState {
  kAbsent,    // no directory
  kComplete,  // every pin, each one ours: the recorder runs
  kHalfMade,  // a directory with only some of our pins: a start that was
              // interrupted (killed) or is still going
};

struct RecorderInspection {
  RecorderState state = RecorderState::kAbsent;
  std::vector<std::string> present;  // our pins that exist, in removal order
  bool has_info = false;
  kestrel_recorder_info info{};
};

// Looks at every entry of the directory. FailedPrecondition, naming the
// entry and what it is, when any of them is not provably the recorder's: an
// unknown name, an object of the wrong kind, type or geometry, an info map
// without our magic and version, a link whose program is not ours.
absl::StatusOr<RecorderInspection> InspectRecorder(const RecorderPins& pins);

// The command that removes a half-made recorder, for messages.
std::string StopCommandFor(const RecorderPins& pins);

}  // namespace kestrel::pman

#endif  // KESTREL_LIBPMAN_RECORDER_INSPECT_H_
