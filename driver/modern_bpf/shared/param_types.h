/* SPDX-License-Identifier: Apache-2.0 */
/*
 * How a parameter is encoded in a record, where the probe takes it from, and
 * which symbolic names user space prints for flag words. The event schema
 * (event_schema.h) is written in these terms.
 */
#ifndef KESTREL_SHARED_PARAM_TYPES_H
#define KESTREL_SHARED_PARAM_TYPES_H

#include "kernel_types.h"

enum kestrel_param_type {
	KPT_NONE = 0,
	KPT_INT64,	   /* 8 bytes, signed */
	KPT_UINT64,	   /* 8 bytes */
	KPT_INT32,	   /* 4 bytes, signed */
	KPT_UINT32,	   /* 4 bytes */
	KPT_FD,		   /* 8 bytes, signed; negative = error or AT_FDCWD */
	KPT_PID,	   /* 8 bytes, signed (a pid, tid or negative pgid) */
	KPT_UID,	   /* 4 bytes */
	KPT_GID,	   /* 4 bytes */
	KPT_ERRNO,	   /* 8 bytes, signed: a syscall return value, -errno on failure */
	KPT_FLAGS32,	   /* 4 bytes, printed with the param's flag set */
	KPT_MODE,	   /* 4 bytes, file mode bits */
	KPT_PATH,	   /* NUL-terminated string, at most KESTREL_MAX_PATH bytes */
	KPT_CHARBUF,	   /* NUL-terminated string bounded by snaplen */
	KPT_BYTEBUF,	   /* raw bytes bounded by snaplen */
	KPT_SOCKADDR,	   /* u8 family, then family-specific bytes (see below) */
	KPT_SOCKTUPLE,	   /* u8 family, then local and remote addresses/ports */
	KPT_CHARBUF_ARRAY, /* NUL-separated strings (argv, env) bounded by snaplen */
	KPT_FDLIST,	   /* poll's descriptors: u16 count, then count x (s64 fd, s16 events) */
	KPT_PARAM_TYPE_MAX,
};

/* Bytes of a fixed-size parameter type, 0 for the variable-length ones: the
 * probe writes and the decoder checks exactly this many. */
#define KESTREL_PARAM_FIXED_SIZE(type)                                                             \
	((type) == KPT_INT64 || (type) == KPT_UINT64 || (type) == KPT_FD || (type) == KPT_PID ||   \
		 (type) == KPT_ERRNO                                                               \
	     ? 8                                                                                   \
	 : (type) == KPT_INT32 || (type) == KPT_UINT32 || (type) == KPT_UID ||                     \
		 (type) == KPT_GID || (type) == KPT_FLAGS32 || (type) == KPT_MODE                  \
	     ? 4                                                                                   \
	     : 0)

/* The same as a function; the macro also serves constant tables. */
static inline __u32 kestrel_param_fixed_size(enum kestrel_param_type type)
{
	return KESTREL_PARAM_FIXED_SIZE(type);
}

/* Where the table-driven filler reads a parameter. KPS_CUSTOM parameters are
 * written by the event's own filler program, after all table-driven ones;
 * the schema lists them last. */
enum kestrel_param_source {
	KPS_ARG0 = 0,
	KPS_ARG1,
	KPS_ARG2,
	KPS_ARG3,
	KPS_ARG4,
	KPS_ARG5,
	KPS_RET,
	KPS_CUSTOM,
};

/* Symbolic names for flag words; the tables live in user space. */
enum kestrel_flag_set {
	KFS_NONE = 0,
	KFS_OPEN_FLAGS,
	KFS_AT_FLAGS,
	KFS_CLONE_FLAGS,
	KFS_PROT_FLAGS,
	KFS_MMAP_FLAGS,
	KFS_SOCKET_FAMILY,
	KFS_SOCKET_TYPE,
	KFS_MOUNT_FLAGS,
	KFS_UMOUNT_FLAGS,
	KFS_RENAME_FLAGS,
	KFS_MEMFD_FLAGS,
	KFS_UNSHARE_FLAGS,
	KFS_FCNTL_CMD,
	KFS_PRCTL_OPTION,
	KFS_PTRACE_REQUEST,
	KFS_SIGNAL,
	KFS_SHUTDOWN_HOW,
	KFS_BPF_CMD,
	KFS_SECCOMP_OP,
	KFS_MSG_FLAGS,
	KFS_ACCEPT_FLAGS,
	KFS_DUP3_FLAGS,
	KFS_ACCESS_MODE,
	KFS_LSEEK_WHENCE,
	KFS_SPLICE_FLAGS,
	KFS_QUOTACTL_CMD,
	KFS_QUOTACTL_TYPE,
	KFS_QUOTACTL_FMT,
	KFS_QUOTACTL_DQI_FLAGS,
	KFS_FSCONFIG_CMD,
	KFS_CHMOD_MODE,
	KFS_CREAT_FLAGS,
	KFS_FD_CREATE_FLAGS, /* O_NONBLOCK, O_CLOEXEC, O_DIRECT of pipe2, eventfd2 ... */
	KFS_EPOLL_CREATE1_FLAGS,
	KFS_CLOSE_RANGE_FLAGS,
	KFS_PIDFD_OPEN_FLAGS,
	KFS_FLOCK_OPERATION,
	KFS_POLL_EVENTS,
	KFS_RLIMIT_RESOURCE,
	KFS_MLOCK2_FLAGS,
	KFS_MLOCKALL_FLAGS,
	KFS_FUTEX_OP,
	KFS_KEYCTL_OPERATION,
	KFS_SEMCTL_CMD,
	KFS_SEMGET_FLAGS,
	KFS_SEMOP_FLAGS,
	KFS_IO_URING_ENTER_FLAGS,
	KFS_IO_URING_REGISTER_OPCODE,
	KFS_EXECVE_FLAGS,
	KFS_SOCKET_FLAGS,
	KFS_SOCKOPT_LEVEL,
	KFS_SOCKOPT_NAME,
	KFS_OPEN_FACTS, /* what an open did: Falco's PPM_O_F_CREATED, PPM_FD_*_LAYER */
	KFS_FLAG_SET_MAX,
};

/* Socket address encoding (KPT_SOCKADDR): family byte, then
 *   AF_INET:  4-byte address, 2-byte port (host order)
 *   AF_INET6: 16-byte address, 2-byte port (host order)
 *   AF_UNIX:  NUL-terminated path (abstract names start with '@')
 * KPT_SOCKTUPLE: family byte, then local address+port, then remote
 * address+port, in the AF_INET/AF_INET6 layout above; for AF_UNIX the
 * local then the peer's NUL-terminated path ("" when unnamed). */
#define KESTREL_AF_UNIX	 1
#define KESTREL_AF_INET	 2
#define KESTREL_AF_INET6 10

/* Most descriptors a KPT_FDLIST parameter holds (Falco's MAX_POLLFD). */
#define KESTREL_MAX_FDLIST 16

/* Longest path the probe copies. */
#define KESTREL_MAX_PATH 4096

#endif /* KESTREL_SHARED_PARAM_TYPES_H */
