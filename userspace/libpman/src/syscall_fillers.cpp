#include "syscall_fillers.h"

#include <bpf/bpf.h>

#include <algorithm>
#include <array>
#include <cerrno>

#include "absl/strings/str_format.h"
#include "errno_status.h"
#include "shared/event_types.h"
#include "shared/syscall_ids.h"

namespace kestrel::pman {
namespace {

constexpr int32_t kNoSlot = -1;

// The schema expanded the way the probe expands it (schema_tables.h and
// custom_filler_call.h): syscall id -> its event's filler slot, when the
// event has custom parameters.
#define KESTREL_HAS_CUSTOM_PARAM(name, type, source, flag_set) || (source) == KPS_CUSTOM
#define KESTREL_SYSCALL_SLOT_ENTRY(name, syscall, params)                     \
  slots[KESTREL_NR_##syscall] = (false params(KESTREL_HAS_CUSTOM_PARAM))      \
                                    ? KESTREL_EVENT_INDEX(KESTREL_EVT_##name) \
                                    : kNoSlot;
constexpr std::array<int32_t, KESTREL_SYSCALL_TABLE_SIZE> MakeSlotOfSyscall() {
  std::array<int32_t, KESTREL_SYSCALL_TABLE_SIZE> slots{};
  slots.fill(kNoSlot);
  KESTREL_SYSCALL_EVENTS(KESTREL_SYSCALL_SLOT_ENTRY)
  return slots;
}
#undef KESTREL_SYSCALL_SLOT_ENTRY
#undef KESTREL_HAS_CUSTOM_PARAM

constexpr std::array<int32_t, KESTREL_SYSCALL_TABLE_SIZE> kSlotOfSyscall = MakeSlotOfSyscall();

}  // namespace

std::vector<uint32_t> FillerSlotsOfSyscalls(const std::vector<uint32_t>& ids) {
  std::vector<uint32_t> slots;
  for (const uint32_t id : ids) {
    if (id < kSlotOfSyscall.size() && kSlotOfSyscall[id] != kNoSlot) {
      slots.push_back(static_cast<uint32_t>(kSlotOfSyscall[id]));
    }
  }
  std::sort(slots.begin(), slots.end());
  slots.erase(std::unique(slots.begin(), slots.end()), slots.end());
  return slots;
}

absl::StatusOr<std::vector<uint32_t>> EmptySlots(int prog_array_fd,
                                                 const std::vector<uint32_t>& slots) {
  std::vector<uint32_t> empty;
  for (const uint32_t slot : slots) {
    // A prog array read from user space yields the program's id.
    uint32_t prog_id = 0;
    if (bpf_map_lookup_elem(prog_array_fd, &slot, &prog_id) == 0) continue;
    if (errno != ENOENT) {
      return ErrnoStatus(errno, absl::StrFormat("reading slot %u of the filler table", slot));
    }
    empty.push_back(slot);
  }
  return empty;
}

}  // namespace kestrel::pman
