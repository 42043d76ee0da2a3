// Wires the probe's filler programs (fill_<EVENT>, or fill_<program> for one
// serving several events: driver/modern_bpf/shared/filler_programs.h) into
// the dispatcher's tail-call table. They run by tail call only and are
// never attached themselves.
#ifndef KESTREL_LIBPMAN_CUSTOM_FILLERS_H_
#define KESTREL_LIBPMAN_CUSTOM_FILLERS_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

struct bpf_object;
struct bpf_program;

namespace kestrel::pman {

// Before load: keeps the fillers from being attached.
void DisableFillerAutoattach(bpf_object* obj);

// The tail-call slots (KESTREL_EVENT_INDEX) filler `prog` serves. An error
// for a program that is no filler or fills no event of the schema.
absl::StatusOr<std::vector<uint32_t>> FillerSlots(const bpf_program* prog);

// After load: puts every filler at its events' slots in `prog_array_fd`.
// A filler named for an event the schema does not have is an error.
absl::Status RegisterCustomFillers(bpf_object* obj, int prog_array_fd);

}  // namespace kestrel::pman

#endif  // KESTREL_LIBPMAN_CUSTOM_FILLERS_H_
