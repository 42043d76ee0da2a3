// The probe's prog array, reached through the live probe rather than a
// pin: a pinned prog array would keep every filler in it loaded after its
// capture was killed, until the next start removed the pins.
#ifndef KESTREL_LIBPMAN_LIVE_PROG_ARRAY_H_
#define KESTREL_LIBPMAN_LIVE_PROG_ARRAY_H_

#include "absl/status/statusor.h"

namespace kestrel::pman {

// A new descriptor of the prog array named `prog_array_name` used by a
// loaded program that also uses the map `anchor_map_fd` (the pinned
// control map). NotFound when no loaded program uses that map: the capture
// is gone.
absl::StatusOr<int> OpenLiveProgArray(int anchor_map_fd, const char* prog_array_name);

}  // namespace kestrel::pman

#endif  // KESTREL_LIBPMAN_LIVE_PROG_ARRAY_H_
