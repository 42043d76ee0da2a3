// A pinned capture's probe, reached through the loaded programs that use
// its pinned control map: whether it still runs (a killed capture leaves
// pins no program uses), and its prog array, which is never pinned (a
// pinned prog array keeps every filler in it loaded after a kill).
#ifndef KESTREL_LIBPMAN_LIVE_PROBE_H_
#define KESTREL_LIBPMAN_LIVE_PROBE_H_

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace kestrel::pman {

// OK when a loaded program uses the map `control_map_fd`; FailedPrecondition
// naming `dir` when none does.
absl::Status RequireLiveProbe(int control_map_fd, const char* dir);

// A new descriptor of the prog array named `prog_array_name` used by a
// loaded program that also uses the map `control_map_fd`. NotFound when no
// loaded program uses both.
absl::StatusOr<int> OpenLiveProgArray(int control_map_fd, const char* prog_array_name);

}  // namespace kestrel::pman

#endif  // KESTREL_LIBPMAN_LIVE_PROBE_H_
