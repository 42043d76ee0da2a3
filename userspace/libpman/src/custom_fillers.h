// Wires the probe's fill_<EVENT> programs into the dispatcher's tail-call
// table. They run by tail call only and are never attached themselves.
#ifndef KESTREL_LIBPMAN_CUSTOM_FILLERS_H_
#define KESTREL_LIBPMAN_CUSTOM_FILLERS_H_

#include "absl/status/status.h"

struct bpf_object;

namespace kestrel::pman {

// Before load: keeps the fillers from being attached.
void DisableFillerAutoattach(bpf_object* obj);

// After load: puts every filler at its event's slot in `prog_array_fd`.
// A filler named for an event the schema does not have is an error.
absl::Status RegisterCustomFillers(bpf_object* obj, int prog_array_fd);

}  // namespace kestrel::pman

#endif  // KESTREL_LIBPMAN_CUSTOM_FILLERS_H_
