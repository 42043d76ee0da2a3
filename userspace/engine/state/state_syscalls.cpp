#include "state_syscalls.h"

#include <algorithm>
#include <string_view>

#include "engine/decode/event_schema.h"
#include "engine/decode/syscall_names.h"
#include "state_updates.h"

namespace kestrel::engine {

const std::vector<uint32_t>& ProcessIdentitySyscalls() {
  static const std::vector<uint32_t> ids = [] {
    std::vector<uint32_t> out;
    for (std::string_view name : {"clone", "clone3", "fork", "vfork", "execve", "execveat", "prctl",
                                  "exit", "exit_group"}) {
      if (std::optional<uint32_t> id = SyscallId(name)) out.push_back(*id);
    }
    std::sort(out.begin(), out.end());
    return out;
  }();
  return ids;
}

const std::vector<uint32_t>& StateSyscalls() {
  static const std::vector<uint32_t> ids = [] {
    std::vector<uint32_t> out = ProcessIdentitySyscalls();
    // Credentials, directories and descriptors: every event with an update.
    for (const EventInfo& event : AllEvents()) {
      if (StateUpdateFor(event.type) == nullptr) continue;
      if (std::optional<uint32_t> id = SyscallId(event.syscall)) out.push_back(*id);
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
  }();
  return ids;
}

}  // namespace kestrel::engine
