#include "value_names.h"

#include <netinet/in.h>
#include <sys/socket.h>

#include <iterator>

#include "absl/container/flat_hash_map.h"

namespace kestrel::engine::fields {

std::string_view FdTypeName(FdType type) {
  switch (type) {
    case FdType::kUnknown:
      return "unknown";
    case FdType::kFile:
      return "file";
    case FdType::kDirectory:
      return "directory";
    case FdType::kIpv4Socket:
      return "ipv4";
    case FdType::kIpv6Socket:
      return "ipv6";
    case FdType::kUnixSocket:
      return "unix";
    case FdType::kNetlinkSocket:
      return "netlink";
    case FdType::kPipe:
      return "pipe";
    case FdType::kEvent:
      return "event";
    case FdType::kSignalfd:
      return "signalfd";
    case FdType::kEventpoll:
      return "eventpoll";
    case FdType::kInotify:
      return "inotify";
    case FdType::kTimerfd:
      return "timerfd";
    case FdType::kMemfd:
      return "memfd";
    case FdType::kPidfd:
      return "pidfd";
    case FdType::kBpf:
      return "bpf";
    case FdType::kUserfaultfd:
      return "userfaultfd";
    case FdType::kIoUring:
      return "io_uring";
  }
  return "unknown";
}

std::string_view FdTypeChar(FdType type) {
  switch (type) {
    case FdType::kUnknown:
      return "o";
    case FdType::kFile:
      return "f";
    case FdType::kDirectory:
      return "d";
    case FdType::kIpv4Socket:
      return "4";
    case FdType::kIpv6Socket:
      return "6";
    case FdType::kUnixSocket:
      return "u";
    case FdType::kNetlinkSocket:
      return "n";
    case FdType::kPipe:
      return "p";
    case FdType::kEvent:
      return "e";
    case FdType::kSignalfd:
      return "s";
    case FdType::kEventpoll:
      return "l";
    case FdType::kInotify:
      return "i";
    case FdType::kTimerfd:
      return "t";
    case FdType::kMemfd:
      return "m";
    case FdType::kPidfd:
      return "P";
    case FdType::kBpf:
      return "b";
    case FdType::kUserfaultfd:
      return "u";  // Falco shares 'u' between unix sockets and userfaultfd
    case FdType::kIoUring:
      return "r";
  }
  return "o";
}

std::string_view L4ProtoName(const FdInfo& fd) {
  switch (fd.l4proto) {
    case IPPROTO_TCP:
      return "tcp";
    case IPPROTO_UDP:
      return "udp";
    case IPPROTO_ICMP:
    case IPPROTO_ICMPV6:
      return "icmp";
    case IPPROTO_RAW:
      return "raw";
    default:
      break;
  }
  if (fd.l4proto != 0) return "";
  // A socket(AF_INET, SOCK_STREAM, 0) records protocol 0: the type says it.
  switch (fd.sock_type & 0xf) {
    case SOCK_STREAM:
      return "tcp";
    case SOCK_DGRAM:
      return "udp";
    case SOCK_RAW:
      return "raw";
    default:
      return "";
  }
}

void AppendCapabilities(std::string& out, uint64_t mask) {
  // Bit n is capability n (linux/capability.h).
  static constexpr std::string_view kNames[] = {"CAP_CHOWN",
                                                "CAP_DAC_OVERRIDE",
                                                "CAP_DAC_READ_SEARCH",
                                                "CAP_FOWNER",
                                                "CAP_FSETID",
                                                "CAP_KILL",
                                                "CAP_SETGID",
                                                "CAP_SETUID",
                                                "CAP_SETPCAP",
                                                "CAP_LINUX_IMMUTABLE",
                                                "CAP_NET_BIND_SERVICE",
                                                "CAP_NET_BROADCAST",
                                                "CAP_NET_ADMIN",
                                                "CAP_NET_RAW",
                                                "CAP_IPC_LOCK",
                                                "CAP_IPC_OWNER",
                                                "CAP_SYS_MODULE",
                                                "CAP_SYS_RAWIO",
                                                "CAP_SYS_CHROOT",
                                                "CAP_SYS_PTRACE",
                                                "CAP_SYS_PACCT",
                                                "CAP_SYS_ADMIN",
                                                "CAP_SYS_BOOT",
                                                "CAP_SYS_NICE",
                                                "CAP_SYS_RESOURCE",
                                                "CAP_SYS_TIME",
                                                "CAP_SYS_TTY_CONFIG",
                                                "CAP_MKNOD",
                                                "CAP_LEASE",
                                                "CAP_AUDIT_WRITE",
                                                "CAP_AUDIT_CONTROL",
                                                "CAP_SETFCAP",
                                                "CAP_MAC_OVERRIDE",
                                                "CAP_MAC_ADMIN",
                                                "CAP_SYSLOG",
                                                "CAP_WAKE_ALARM",
                                                "CAP_BLOCK_SUSPEND",
                                                "CAP_AUDIT_READ",
                                                "CAP_PERFMON",
                                                "CAP_BPF",
                                                "CAP_CHECKPOINT_RESTORE"};
  for (size_t bit = 0; bit < std::size(kNames); ++bit) {
    if ((mask & (uint64_t{1} << bit)) == 0) continue;
    if (!out.empty()) out.push_back(' ');
    out.append(kNames[bit]);
  }
}

namespace {

enum class Category : uint8_t {
  kFile,
  kNet,
  kIpc,
  kMemory,
  kProcess,
  kSleep,
  kSystem,
  kSignal,
  kUser,
  kTime,
  kWait,
  kIo
};

const absl::flat_hash_map<std::string_view, Category>& Categories() {
  static const auto* const m = [] {
    auto* c = new absl::flat_hash_map<std::string_view, Category>();
    const auto add = [&](Category cat, std::initializer_list<std::string_view> names) {
      for (std::string_view n : names) c->emplace(n, cat);
    };
    add(Category::kIo,
        {"read", "write", "pread64", "pwrite64", "readv", "writev", "preadv", "pwritev", "preadv2",
         "pwritev2", "sendfile", "splice", "tee", "vmsplice", "copy_file_range", "ioctl"});
    add(Category::kFile, {"open",
                          "openat",
                          "openat2",
                          "creat",
                          "close",
                          "close_range",
                          "lseek",
                          "stat",
                          "fstat",
                          "lstat",
                          "newfstatat",
                          "statx",
                          "statfs",
                          "fstatfs",
                          "access",
                          "faccessat",
                          "faccessat2",
                          "mkdir",
                          "mkdirat",
                          "rmdir",
                          "unlink",
                          "unlinkat",
                          "rename",
                          "renameat",
                          "renameat2",
                          "link",
                          "linkat",
                          "symlink",
                          "symlinkat",
                          "readlink",
                          "readlinkat",
                          "chmod",
                          "fchmod",
                          "fchmodat",
                          "chown",
                          "fchown",
                          "fchownat",
                          "lchown",
                          "truncate",
                          "ftruncate",
                          "fsync",
                          "fdatasync",
                          "dup",
                          "dup2",
                          "dup3",
                          "fcntl",
                          "getdents",
                          "getdents64",
                          "mount",
                          "umount2",
                          "flock",
                          "fallocate",
                          "mknod",
                          "mknodat",
                          "inotify_init",
                          "inotify_init1",
                          "inotify_add_watch",
                          "open_by_handle_at",
                          "name_to_handle_at",
                          "utimensat",
                          "chdir",
                          "fchdir",
                          "getcwd",
                          "memfd_create",
                          "setxattr",
                          "getxattr",
                          "fsetxattr",
                          "fgetxattr",
                          "quotactl",
                          "chroot"});
    add(Category::kNet, {"socket", "socketpair", "connect", "accept", "accept4", "bind", "listen",
                         "sendto", "recvfrom", "sendmsg", "recvmsg", "sendmmsg", "recvmmsg",
                         "shutdown", "getsockname", "getpeername", "getsockopt", "setsockopt"});
    add(Category::kIpc,
        {"pipe", "pipe2", "eventfd", "eventfd2", "futex", "semop", "semget", "semctl", "semtimedop",
         "shmget", "shmat", "shmdt", "shmctl", "msgget", "msgsnd", "msgrcv", "msgctl", "mq_open"});
    add(Category::kMemory,
        {"mmap", "munmap", "mprotect", "brk", "mremap", "madvise", "mlock", "munlock", "mlockall",
         "munlockall", "mlock2", "msync", "userfaultfd", "pkey_mprotect"});
    add(Category::kProcess,
        {"execve",      "execveat",  "clone",      "clone3",      "fork",
         "vfork",       "exit",      "exit_group", "setuid",      "setgid",
         "setreuid",    "setregid",  "setresuid",  "setresgid",   "setfsuid",
         "setfsgid",    "setsid",    "setpgid",    "getpid",      "getppid",
         "gettid",      "prctl",     "capset",     "ptrace",      "setns",
         "unshare",     "setrlimit", "prlimit64",  "getrlimit",   "pidfd_open",
         "pidfd_getfd", "seccomp",   "arch_prctl", "sched_yield", "sched_setaffinity"});
    add(Category::kSignal, {"kill", "tkill", "tgkill", "signalfd", "signalfd4", "rt_sigaction",
                            "rt_sigprocmask", "rt_sigreturn", "sigaltstack", "rt_sigsuspend",
                            "rt_sigtimedwait", "rt_sigqueueinfo", "pidfd_send_signal", "pause"});
    add(Category::kSleep, {"nanosleep", "clock_nanosleep"});
    add(Category::kTime,
        {"gettimeofday", "settimeofday", "clock_gettime", "clock_settime", "clock_getres", "time",
         "timerfd_create", "timerfd_settime", "timerfd_gettime", "timer_create", "adjtimex"});
    add(Category::kUser, {"getuid", "getgid", "geteuid", "getegid", "getresuid", "getresgid",
                          "getgroups", "setgroups", "capget"});
    add(Category::kWait,
        {"poll", "ppoll", "select", "pselect6", "epoll_wait", "epoll_pwait", "epoll_pwait2",
         "wait4", "waitid", "epoll_create", "epoll_create1", "epoll_ctl"});
    add(Category::kSystem,
        {"bpf", "init_module", "finit_module", "delete_module", "reboot", "syslog", "sysinfo",
         "uname", "perf_event_open", "io_uring_setup", "io_uring_enter", "io_uring_register",
         "kexec_load", "swapon", "swapoff", "sethostname", "setdomainname", "getrandom"});
    return c;
  }();
  return *m;
}

}  // namespace

std::string_view EventCategory(std::string_view syscall, const FdInfo* fd) {
  const auto it = Categories().find(syscall);
  if (it == Categories().end()) return "other";
  switch (it->second) {
    case Category::kIo:
      if (fd == nullptr) return "unknown";
      switch (fd->type) {
        case FdType::kFile:
        case FdType::kDirectory:
        case FdType::kMemfd:
          return "file";
        case FdType::kIpv4Socket:
        case FdType::kIpv6Socket:
        case FdType::kUnixSocket:
        case FdType::kNetlinkSocket:
          return "net";
        case FdType::kPipe:
        case FdType::kEvent:
          return "ipc";
        default:
          return "unknown";
      }
    case Category::kFile:
      return "file";
    case Category::kNet:
      return "net";
    case Category::kIpc:
      return "IPC";  // as Falco spells the category (its I/O sub-category is "ipc")
    case Category::kMemory:
      return "memory";
    case Category::kProcess:
      return "process";
    case Category::kSleep:
      return "sleep";
    case Category::kSystem:
      return "system";
    case Category::kSignal:
      return "signal";
    case Category::kUser:
      return "user";
    case Category::kTime:
      return "time";
    case Category::kWait:
      return "wait";
  }
  return "other";
}

SyscallIo IoOf(std::string_view syscall) {
  static constexpr std::string_view kReads[] = {"read",     "pread64", "readv",   "preadv",
                                                "recvfrom", "recvmsg", "recvmmsg"};
  static constexpr std::string_view kWrites[] = {"write",  "pwrite64", "writev",  "pwritev",
                                                 "sendto", "sendmsg",  "sendmmsg"};
  for (std::string_view s : kReads) {
    if (s == syscall) return {.reads = true, .io_event = true};
  }
  for (std::string_view s : kWrites) {
    if (s == syscall) return {.writes = true, .io_event = true};
  }
  if (syscall == "copy_file_range") return {.reads = true, .writes = true};
  if (syscall == "finit_module") return {.reads = true};
  return {};
}

}  // namespace kestrel::engine::fields
