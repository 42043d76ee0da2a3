// The per-syscall tracepoints (syscalls:sys_exit_*) are reached through
// tracefs, which many hosts (this VM among them) leave unmounted. Without
// it every attach fails, and a bench that ignored the failure would read a
// cost of 0 ns: the bench mounts it for its run and unmounts what it
// mounted.
#ifndef KESTREL_TOOLS_BENCH_TRACEFS_MOUNT_H_
#define KESTREL_TOOLS_BENCH_TRACEFS_MOUNT_H_

#include <string>

#include "absl/status/statusor.h"

namespace kestrel::bench {

class TracefsMount {
 public:
  // Makes syscalls:* tracepoints attachable: nothing to do when tracefs is
  // mounted at /sys/kernel/tracing or /sys/kernel/debug/tracing, else it
  // is mounted at /sys/kernel/tracing until this goes away. Fails when the
  // kernel has no syscall tracepoints or the mount is refused.
  static absl::StatusOr<TracefsMount> Ensure();
  TracefsMount(TracefsMount&& other) noexcept : root_(other.root_), mounted_(other.mounted_) {
    other.mounted_ = false;
  }
  TracefsMount& operator=(TracefsMount&&) = delete;
  ~TracefsMount();

  // Whether syscall `name` has an exit tracepoint (syscalls:sys_exit_NAME):
  // the kernel lacks some syscalls, and traces none without metadata.
  bool HasSyscallExit(const std::string& name) const;

 private:
  TracefsMount(const char* root, bool mounted) : root_(root), mounted_(mounted) {}
  const char* root_;  // where tracefs is: kTracefs or kDebugTracefs
  bool mounted_;
};

}  // namespace kestrel::bench

#endif  // KESTREL_TOOLS_BENCH_TRACEFS_MOUNT_H_
