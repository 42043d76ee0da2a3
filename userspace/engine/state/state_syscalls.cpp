#include "state_syscalls.h"

#include <algorithm>
#include <string_view>

#include "engine/decode/syscall_names.h"

namespace kestrel::engine {

const std::vector<uint32_t>& StateSyscalls() {
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

}  // namespace kestrel::engine
