#include "custom_fillers.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string_view>

#include "absl/strings/str_format.h"
#include "errno_status.h"
#include "shared/event_types.h"
#include "shared/filler_programs.h"

namespace kestrel::pman {
namespace {

constexpr std::string_view kFillerPrefix = "fill_";

struct EventName {
  std::string_view name;
  uint32_t type;
};

#define KESTREL_EVENT_NAME_ENTRY(name, syscall, params) EventName{#name, KESTREL_EVT_##name},
constexpr EventName kEventNames[] = {KESTREL_SYSCALL_EVENTS(KESTREL_EVENT_NAME_ENTRY)};
#undef KESTREL_EVENT_NAME_ENTRY

// A program serving several events, from shared/filler_programs.h.
struct SharedFiller {
  std::string_view program;
  std::vector<uint32_t> slots;
};

const std::vector<SharedFiller>& SharedFillers() {
#define KESTREL_SHARED_FILLER_SLOT(name) KESTREL_EVENT_INDEX(KESTREL_EVT_##name),
#define KESTREL_SHARED_FILLER_ENTRY(program, events) \
  SharedFiller{#program, {events(KESTREL_SHARED_FILLER_SLOT)}},
  static const auto* const fillers =
      new std::vector<SharedFiller>{KESTREL_SHARED_FILLERS(KESTREL_SHARED_FILLER_ENTRY)};
#undef KESTREL_SHARED_FILLER_ENTRY
#undef KESTREL_SHARED_FILLER_SLOT
  return *fillers;
}

}  // namespace

bool IsFillerName(std::string_view name) { return name.starts_with(kFillerPrefix); }

bool IsFiller(const bpf_program* prog) { return IsFillerName(bpf_program__name(prog)); }

absl::StatusOr<std::vector<uint32_t>> FillerSlots(const bpf_program* prog) {
  const std::string_view name = bpf_program__name(prog);
  if (!name.starts_with(kFillerPrefix)) {
    return absl::InvalidArgumentError(absl::StrFormat("BPF program %s is no filler", name));
  }
  const std::string_view filler = name.substr(kFillerPrefix.size());
  for (const SharedFiller& shared : SharedFillers()) {
    if (shared.program == filler) return shared.slots;
  }
  for (const EventName& e : kEventNames) {
    if (e.name == filler) return std::vector<uint32_t>{KESTREL_EVENT_INDEX(e.type)};
  }
  return absl::InternalError(
      absl::StrFormat("BPF program %s fills an event the schema does not have", name));
}

absl::Status PrepareFillers(bpf_object* obj,
                            const std::optional<std::vector<uint32_t>>& load_slots) {
  bpf_program* prog;
  bpf_object__for_each_program(prog, obj) {
    if (!IsFiller(prog)) continue;
    bpf_program__set_autoattach(prog, false);
    if (!load_slots) continue;
    absl::StatusOr<std::vector<uint32_t>> slots = FillerSlots(prog);
    if (!slots.ok()) return slots.status();
    const bool needed = std::any_of(slots->begin(), slots->end(), [&](uint32_t slot) {
      return std::binary_search(load_slots->begin(), load_slots->end(), slot);
    });
    bpf_program__set_autoload(prog, needed);
  }
  return absl::OkStatus();
}

absl::Status RegisterCustomFillers(bpf_object* obj, int prog_array_fd) {
  bpf_program* prog;
  bpf_object__for_each_program(prog, obj) {
    if (!IsFiller(prog) || bpf_program__fd(prog) < 0) continue;
    absl::StatusOr<std::vector<uint32_t>> slots = FillerSlots(prog);
    if (!slots.ok()) return slots.status();
    const int fd = bpf_program__fd(prog);
    for (const uint32_t slot : *slots) {
      if (bpf_map_update_elem(prog_array_fd, &slot, &fd, BPF_ANY) != 0) {
        return ErrnoStatus(errno,
                           absl::StrFormat("registering filler %s", bpf_program__name(prog)));
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace kestrel::pman
