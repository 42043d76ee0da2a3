#include "bench/tracefs_mount.h"

#include <sys/mount.h>
#include <unistd.h>

#include <cerrno>

#include "absl/strings/str_cat.h"

namespace kestrel::bench {
namespace {

constexpr char kTracefs[] = "/sys/kernel/tracing";
constexpr char kDebugTracefs[] = "/sys/kernel/debug/tracing";

bool HasSyscallEvents(const char* root) {
  return access(absl::StrCat(root, "/events/syscalls").c_str(), F_OK) == 0;
}

}  // namespace

absl::StatusOr<TracefsMount> TracefsMount::Ensure() {
  if (HasSyscallEvents(kTracefs)) return TracefsMount(kTracefs, false);
  if (HasSyscallEvents(kDebugTracefs)) return TracefsMount(kDebugTracefs, false);
  if (mount("nodev", kTracefs, "tracefs", 0, nullptr) != 0) {
    return absl::ErrnoToStatus(errno, absl::StrCat("mounting tracefs at ", kTracefs));
  }
  TracefsMount mounted(kTracefs, true);
  if (!HasSyscallEvents(kTracefs)) {
    return absl::FailedPreconditionError(
        "this kernel has no syscall tracepoints (CONFIG_FTRACE_SYSCALLS)");
  }
  return mounted;
}

bool TracefsMount::HasSyscallExit(const std::string& name) const {
  return access(absl::StrCat(root_, "/events/syscalls/sys_exit_", name).c_str(), F_OK) == 0;
}

TracefsMount::~TracefsMount() {
  if (mounted_) umount2(kTracefs, MNT_DETACH);
}

}  // namespace kestrel::bench
