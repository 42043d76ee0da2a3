#include "bench/foreign_hooks.h"

#include <bpf/bpf.h>
#include <unistd.h>

#include <cstring>

#include "absl/strings/str_format.h"

namespace kestrel::bench {

int CountSyscallHookLinks() {
  int count = 0;
  __u32 id = 0;
  while (bpf_link_get_next_id(id, &id) == 0) {
    const int fd = bpf_link_get_fd_by_id(id);
    if (fd < 0) continue;
    char tp_name[64] = {};
    bpf_link_info info{};
    info.raw_tracepoint.tp_name = reinterpret_cast<__u64>(tp_name);
    info.raw_tracepoint.tp_name_len = sizeof(tp_name);
    __u32 len = sizeof(info);
    if (bpf_obj_get_info_by_fd(fd, &info, &len) == 0 && info.type == BPF_LINK_TYPE_RAW_TRACEPOINT &&
        (std::strcmp(tp_name, "sys_enter") == 0 || std::strcmp(tp_name, "sys_exit") == 0)) {
      ++count;
    }
    close(fd);
  }
  return count;
}

std::string ForeignHooksNote(const std::string& when, int count) {
  if (count == 0) return "";
  return absl::StrFormat(
      "%d other tracer link(s) on sys_enter/sys_exit %s: every syscall was already on the "
      "kernel's slow path, so added costs here understate a first hook's",
      count, when);
}

}  // namespace kestrel::bench
