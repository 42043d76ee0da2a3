#include "custom_fillers.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <cerrno>
#include <cstring>
#include <string_view>

#include "absl/strings/str_format.h"
#include "errno_status.h"
#include "shared/event_types.h"

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

bool IsFiller(const bpf_program* prog) {
  return std::string_view(bpf_program__name(prog)).starts_with(kFillerPrefix);
}

}  // namespace

void DisableFillerAutoattach(bpf_object* obj) {
  bpf_program* prog;
  bpf_object__for_each_program(prog, obj) {
    if (IsFiller(prog)) bpf_program__set_autoattach(prog, false);
  }
}

absl::Status RegisterCustomFillers(bpf_object* obj, int prog_array_fd) {
  bpf_program* prog;
  bpf_object__for_each_program(prog, obj) {
    if (!IsFiller(prog)) continue;
    const std::string_view event =
        std::string_view(bpf_program__name(prog)).substr(kFillerPrefix.size());
    const EventName* match = nullptr;
    for (const EventName& e : kEventNames) {
      if (e.name == event) match = &e;
    }
    if (match == nullptr) {
      return absl::InternalError(absl::StrFormat(
          "BPF program %s fills an event the schema does not have", bpf_program__name(prog)));
    }
    const uint32_t index = KESTREL_EVENT_INDEX(match->type);
    const int fd = bpf_program__fd(prog);
    if (bpf_map_update_elem(prog_array_fd, &index, &fd, BPF_ANY) != 0) {
      return ErrnoStatus(errno, absl::StrFormat("registering filler %s", bpf_program__name(prog)));
    }
  }
  return absl::OkStatus();
}

}  // namespace kestrel::pman
