// What already sits at a pin folder a capture wants: nothing of note, the
// pins a killed capture left (which the new one may replace), a running
// capture, something else, or a folder of another user. Only the first two
// may be pinned over.
#ifndef KESTREL_LIBPMAN_PIN_DIR_OCCUPANT_H_
#define KESTREL_LIBPMAN_PIN_DIR_OCCUPANT_H_

#include <string>

#include "absl/status/statusor.h"

namespace kestrel::pman {

enum class PinDirOccupant {
  kEmpty,          // this user's, and empty
  kDeadCapture,    // only a capture's pins, and no loaded program uses them
  kLiveCapture,    // a capture's pins a loaded program uses
  kSomethingElse,  // anything else
  kOtherOwner,     // a folder this user does not own: never pinned into
};

// Classifies the existing folder `dir`. A killed capture's programs are
// freed a moment after its descriptors close, so pins still in use are
// looked at again for up to a second before being called live.
absl::StatusOr<PinDirOccupant> ClassifyPinDir(const std::string& dir);

// Why a capture cannot be pinned at `dir` with `occupant` there (one line).
std::string PinDirRefusal(const std::string& dir, PinDirOccupant occupant);

}  // namespace kestrel::pman

#endif  // KESTREL_LIBPMAN_PIN_DIR_OCCUPANT_H_
