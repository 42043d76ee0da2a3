// Which custom-filler slots a set of syscalls needs: a syscall whose event
// has custom parameters (KPS_CUSTOM) continues in that event's filler by
// tail call (driver/modern_bpf/helpers/dispatch/custom_filler_call.h).
#ifndef KESTREL_LIBPMAN_SYSCALL_FILLERS_H_
#define KESTREL_LIBPMAN_SYSCALL_FILLERS_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"

namespace kestrel::pman {

// The custom_fillers slots (KESTREL_EVENT_INDEX) of the events of the
// 64-bit syscall ids `ids`, sorted and without repeats. Ids without a
// specific event, or whose event has no custom parameter, need none; ia32
// calls are always generic records.
std::vector<uint32_t> FillerSlotsOfSyscalls(const std::vector<uint32_t>& ids);

// The slots among `slots` that hold no program in the prog array
// `prog_array_fd`.
absl::StatusOr<std::vector<uint32_t>> EmptySlots(int prog_array_fd,
                                                 const std::vector<uint32_t>& slots);

}  // namespace kestrel::pman

#endif  // KESTREL_LIBPMAN_SYSCALL_FILLERS_H_
