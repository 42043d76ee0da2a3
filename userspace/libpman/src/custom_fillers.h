// Wires the probe's filler programs (fill_<EVENT>, or fill_<program> for one
// serving several events: driver/modern_bpf/shared/filler_programs.h) into
// the dispatcher's tail-call table. They run by tail call only and are
// never attached themselves.
#ifndef KESTREL_LIBPMAN_CUSTOM_FILLERS_H_
#define KESTREL_LIBPMAN_CUSTOM_FILLERS_H_

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

struct bpf_object;
struct bpf_program;

namespace kestrel::pman {

// Whether `prog` is a custom filler (reached by tail call, never attached).
bool IsFiller(const bpf_program* prog);
// The same test on a program's name, as the kernel reports it too.
bool IsFillerName(std::string_view name);

// The tail-call slots of custom_fillers that filler `prog` serves: the one
// place that knows how a filler program maps to events. Both the load-time
// registration and the lazy filler loader go through it.
absl::StatusOr<std::vector<uint32_t>> FillerSlots(const bpf_program* prog);

// Before load: keeps the fillers from being attached, and loads only those
// serving one of `load_slots` (sorted), or all of them when it is nullopt.
// The others can be loaded later, when a syscall needs them
// (filler_loader.h).
absl::Status PrepareFillers(bpf_object* obj,
                            const std::optional<std::vector<uint32_t>>& load_slots);

// After load: puts every loaded filler at its slots in `prog_array_fd`.
// A filler named for an event the schema does not have is an error.
absl::Status RegisterCustomFillers(bpf_object* obj, int prog_array_fd);

}  // namespace kestrel::pman

#endif  // KESTREL_LIBPMAN_CUSTOM_FILLERS_H_
