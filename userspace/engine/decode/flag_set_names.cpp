#include "flag_set_names.h"

namespace kestrel::engine {

// No default case: -Wswitch (an error here) makes a new set name itself.
std::string_view FlagSetName(kestrel_flag_set set) {
  switch (set) {
    case KFS_NONE:
    case KFS_FLAG_SET_MAX:
      return "";
    case KFS_OPEN_FLAGS:
      return "open_flags";
    case KFS_AT_FLAGS:
      return "at_flags";
    case KFS_CLONE_FLAGS:
      return "clone_flags";
    case KFS_PROT_FLAGS:
      return "prot_flags";
    case KFS_MMAP_FLAGS:
      return "mmap_flags";
    case KFS_SOCKET_FAMILY:
      return "socket_family";
    case KFS_SOCKET_TYPE:
      return "socket_type";
    case KFS_MOUNT_FLAGS:
      return "mount_flags";
    case KFS_UMOUNT_FLAGS:
      return "umount_flags";
    case KFS_RENAME_FLAGS:
      return "rename_flags";
    case KFS_MEMFD_FLAGS:
      return "memfd_flags";
    case KFS_UNSHARE_FLAGS:
      return "unshare_flags";
    case KFS_FCNTL_CMD:
      return "fcntl_cmd";
    case KFS_PRCTL_OPTION:
      return "prctl_option";
    case KFS_PTRACE_REQUEST:
      return "ptrace_request";
    case KFS_SIGNAL:
      return "signal";
    case KFS_SHUTDOWN_HOW:
      return "shutdown_how";
    case KFS_BPF_CMD:
      return "bpf_cmd";
    case KFS_SECCOMP_OP:
      return "seccomp_op";
    case KFS_MSG_FLAGS:
      return "msg_flags";
    case KFS_ACCEPT_FLAGS:
      return "accept_flags";
    case KFS_DUP3_FLAGS:
      return "dup3_flags";
    case KFS_ACCESS_MODE:
      return "access_mode";
    case KFS_LSEEK_WHENCE:
      return "lseek_whence";
    case KFS_SPLICE_FLAGS:
      return "splice_flags";
    case KFS_QUOTACTL_CMD:
      return "quotactl_cmd";
    case KFS_QUOTACTL_TYPE:
      return "quotactl_type";
    case KFS_QUOTACTL_FMT:
      return "quotactl_fmt";
    case KFS_QUOTACTL_DQI_FLAGS:
      return "quotactl_dqi_flags";
    case KFS_FSCONFIG_CMD:
      return "fsconfig_cmd";
    case KFS_CHMOD_MODE:
      return "chmod_mode";
    case KFS_CREAT_FLAGS:
      return "creat_flags";
    case KFS_FD_CREATE_FLAGS:
      return "fd_create_flags";
    case KFS_EPOLL_CREATE1_FLAGS:
      return "epoll_create1_flags";
    case KFS_CLOSE_RANGE_FLAGS:
      return "close_range_flags";
    case KFS_PIDFD_OPEN_FLAGS:
      return "pidfd_open_flags";
    case KFS_FLOCK_OPERATION:
      return "flock_operation";
    case KFS_POLL_EVENTS:
      return "poll_events";
  }
  return "";
}

}  // namespace kestrel::engine
