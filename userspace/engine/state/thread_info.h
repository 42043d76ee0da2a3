// What the engine knows about one thread. The seed (/proc) fills every
// field it can; the kernel's records keep them current afterwards (see
// thread_table.h for which record changes which field).
#ifndef KESTREL_ENGINE_STATE_THREAD_INFO_H_
#define KESTREL_ENGINE_STATE_THREAD_INFO_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace kestrel::engine {

class FdTable;

struct ThreadInfo {
  uint32_t tid = 0;
  uint32_t tgid = 0;  // the process id
  uint32_t ppid = 0;  // the parent's process id; 0 when not known
  // Ids as the thread's own pid namespace numbers them (equal to tid/tgid
  // on the host); 0 when not known.
  uint32_t vtid = 0;
  uint32_t vpid = 0;
  uint32_t sid = 0;   // session id
  uint32_t pgid = 0;  // process group id
  uint32_t tty = 0;   // controlling terminal's device number; 0 = none

  std::string comm;               // the kernel's task name, at most 15 bytes
  std::string exe;                // argv[0] as exec'd (Falco's proc.exe)
  std::string exepath;            // the executable's full path (proc.exepath)
  std::vector<std::string> args;  // argv[1..]
  std::vector<std::string> env;   // empty unless recorded or seeded
  std::string cwd;                // ends without '/', except "/" itself
  std::string root;               // chroot; "/" unless changed

  uint32_t uid = UINT32_MAX, gid = UINT32_MAX;    // real
  uint32_t euid = UINT32_MAX, egid = UINT32_MAX;  // effective
  uint32_t loginuid = UINT32_MAX;                 // UINT32_MAX = unset
  uint64_t cap_effective = 0, cap_permitted = 0, cap_inheritable = 0;

  // The cgroup path its container is read from: of the unified and v1
  // paths, the one naming a container, else the unified one.
  std::string cgroup;
  // Every controller's cgroup, "controller=path", as the probe's `cgroups`
  // parameter names them (thread.cgroups); inherited on clone.
  std::vector<std::string> cgroups;
  uint64_t start_ns = 0;  // process start, ns since the epoch; 0 = unknown
  // The executable file's facts at exec (proc.exe_ino*, is_exe_*).
  uint64_t exe_ino = 0;
  uint64_t exe_ctime_ns = 0, exe_mtime_ns = 0;
  bool exe_writable = false, exe_from_memfd = false, exe_upper_layer = false;
  bool exe_lower_layer = false;
  // Start of the init of the thread's pid namespace, ns since the epoch
  // (the boot time for the host's namespace, as Falco); 0 = unknown.
  uint64_t pidns_init_start_ns = 0;

  // The process's descriptors; threads of one process (and CLONE_FILES
  // children) share one table. Null until the fd state knows the process.
  std::shared_ptr<FdTable> fds;

  // Set by PROCESS_EXIT: the thread is gone, and its entry is kept only for
  // the grace period so records still in flight resolve.
  bool exited = false;
  uint64_t exit_ts_ns = 0;
};

}  // namespace kestrel::engine

#endif  // KESTREL_ENGINE_STATE_THREAD_INFO_H_
