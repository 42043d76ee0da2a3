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
    case KFS_SOCKET_FLAGS:
      return "socket_flags";
    case KFS_SOCKOPT_LEVEL:
      return "sockopt_level";
    case KFS_SOCKOPT_NAME:
      return "sockopt_name";
  }
  return "";
}

}  // namespace kestrel::engine
