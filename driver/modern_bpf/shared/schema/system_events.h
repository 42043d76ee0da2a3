/* SPDX-License-Identifier: Apache-2.0 */
/*
 * System events of the schema: credential queries, resource limits, memory,
 * sleeping and waiting, System V semaphores, keys, io_uring and cross-process
 * memory access. See ../event_schema.h for the format.
 *
 * Parameter names are those of Falco's exit events; a few carry Kestrel
 * extras after them. Flag and enumeration words keep the kernel's raw values;
 * user space prints them with Falco's names.
 */
#ifndef KESTREL_SHARED_SCHEMA_SYSTEM_EVENTS_H
#define KESTREL_SHARED_SCHEMA_SYSTEM_EVENTS_H

/* The id queries cannot fail: their return value is the id. */
#define KESTREL_PARAMS_GETUID(PARAM)  PARAM(uid, KPT_UID, KPS_RET, KFS_NONE)
#define KESTREL_PARAMS_GETEUID(PARAM) PARAM(euid, KPT_UID, KPS_RET, KFS_NONE)
#define KESTREL_PARAMS_GETGID(PARAM)  PARAM(gid, KPT_GID, KPS_RET, KFS_NONE)
#define KESTREL_PARAMS_GETEGID(PARAM) PARAM(egid, KPT_GID, KPS_RET, KFS_NONE)

/* The three ids as the kernel wrote them to the caller's out-pointers, read
 * back at exit (another thread may have overwritten them since: TOCTOU
 * exposure); 0 when a pointer cannot be read. */
#define KESTREL_PARAMS_GETRESUID(PARAM)                                                            \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(ruid, KPT_UID, KPS_CUSTOM, KFS_NONE)                                                 \
	PARAM(euid, KPT_UID, KPS_CUSTOM, KFS_NONE)                                                 \
	PARAM(suid, KPT_UID, KPS_CUSTOM, KFS_NONE)

#define KESTREL_PARAMS_GETRESGID(PARAM)                                                            \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(rgid, KPT_GID, KPS_CUSTOM, KFS_NONE)                                                 \
	PARAM(egid, KPT_GID, KPS_CUSTOM, KFS_NONE)                                                 \
	PARAM(sgid, KPT_GID, KPS_CUSTOM, KFS_NONE)

/* Process state the engine follows: gids, the session (setsid returns the
 * new session id, which is also the new process group id) and the process
 * group (pid 0 means the caller, pgid 0 means pgid = pid). */
#define KESTREL_PARAMS_SETREGID(PARAM)                                                             \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(rgid, KPT_GID, KPS_ARG0, KFS_NONE)                                                   \
	PARAM(egid, KPT_GID, KPS_ARG1, KFS_NONE)

#define KESTREL_PARAMS_SETSID(PARAM) PARAM(res, KPT_PID, KPS_RET, KFS_NONE)

#define KESTREL_PARAMS_SETPGID(PARAM)                                                              \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(pid, KPT_PID, KPS_ARG0, KFS_NONE)                                                    \
	PARAM(pgid, KPT_PID, KPS_ARG1, KFS_NONE)

/* Resource limits. cur/max are the struct rlimit the call read or wrote in
 * the caller's memory, read at exit (TOCTOU exposure): getrlimit's are -1
 * when the call failed (the kernel wrote nothing); setrlimit's are what the
 * caller asked for, 0 when unreadable. RLIM_INFINITY reads as -1. */
#define KESTREL_PARAMS_GETRLIMIT(PARAM)                                                            \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(resource, KPT_FLAGS32, KPS_ARG0, KFS_RLIMIT_RESOURCE)                                \
	PARAM(cur, KPT_INT64, KPS_CUSTOM, KFS_NONE)                                                \
	PARAM(max, KPT_INT64, KPS_CUSTOM, KFS_NONE)

/* prlimit64(pid, resource, new, old): newcur/newmax are the requested limit
 * (0 when there is none), oldcur/oldmax the previous one the kernel wrote
 * back (-1 when the call failed). */
#define KESTREL_PARAMS_PRLIMIT64(PARAM)                                                            \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(pid, KPT_PID, KPS_ARG0, KFS_NONE)                                                    \
	PARAM(resource, KPT_FLAGS32, KPS_ARG1, KFS_RLIMIT_RESOURCE)                                \
	PARAM(newcur, KPT_INT64, KPS_CUSTOM, KFS_NONE)                                             \
	PARAM(newmax, KPT_INT64, KPS_CUSTOM, KFS_NONE)                                             \
	PARAM(oldcur, KPT_INT64, KPS_CUSTOM, KFS_NONE)                                             \
	PARAM(oldmax, KPT_INT64, KPS_CUSTOM, KFS_NONE)

/* The address space after the call, in KiB, from the mm's counters as
 * /proc/PID/status shows them (VmSize, VmRSS, VmSwap). The RSS and swap
 * counters are per-CPU batched: the value is the shared count, which may
 * lag the exact sum by a few pages per CPU. */
#define KESTREL_PARAMS_MM_COUNTERS(PARAM)                                                          \
	PARAM(vm_size, KPT_UINT32, KPS_CUSTOM, KFS_NONE)                                           \
	PARAM(vm_rss, KPT_UINT32, KPS_CUSTOM, KFS_NONE)                                            \
	PARAM(vm_swap, KPT_UINT32, KPS_CUSTOM, KFS_NONE)

/* brk returns the new program break (the old one on failure), not -errno. */
#define KESTREL_PARAMS_BRK(PARAM)                                                                  \
	PARAM(res, KPT_UINT64, KPS_RET, KFS_NONE)                                                  \
	PARAM(addr, KPT_UINT64, KPS_ARG0, KFS_NONE)                                                \
	KESTREL_PARAMS_MM_COUNTERS(PARAM)

#define KESTREL_PARAMS_MUNMAP(PARAM)                                                               \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(addr, KPT_UINT64, KPS_ARG0, KFS_NONE)                                                \
	PARAM(length, KPT_UINT64, KPS_ARG1, KFS_NONE)                                              \
	KESTREL_PARAMS_MM_COUNTERS(PARAM)

#define KESTREL_PARAMS_MLOCK(PARAM)                                                                \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(addr, KPT_UINT64, KPS_ARG0, KFS_NONE)                                                \
	PARAM(len, KPT_UINT64, KPS_ARG1, KFS_NONE)

#define KESTREL_PARAMS_MLOCK2(PARAM)                                                               \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(addr, KPT_UINT64, KPS_ARG0, KFS_NONE)                                                \
	PARAM(len, KPT_UINT64, KPS_ARG1, KFS_NONE)                                                 \
	PARAM(flags, KPT_FLAGS32, KPS_ARG2, KFS_MLOCK2_FLAGS)

#define KESTREL_PARAMS_MLOCKALL(PARAM)                                                             \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(flags, KPT_FLAGS32, KPS_ARG0, KFS_MLOCKALL_FLAGS)

#define KESTREL_PARAMS_MUNLOCKALL(PARAM) PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)

/* interval: the requested sleep in nanoseconds, from the caller's timespec
 * read at exit (TOCTOU exposure); 0 when unreadable. */
#define KESTREL_PARAMS_NANOSLEEP(PARAM)                                                            \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(interval, KPT_UINT64, KPS_CUSTOM, KFS_NONE)

/* futex is among the most frequent syscalls: registers only, no filler. */
#define KESTREL_PARAMS_FUTEX(PARAM)                                                                \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(addr, KPT_UINT64, KPS_ARG0, KFS_NONE)                                                \
	PARAM(op, KPT_FLAGS32, KPS_ARG1, KFS_FUTEX_OP)                                             \
	PARAM(val, KPT_UINT64, KPS_ARG2, KFS_NONE)

/* keyctl's arguments are the raw registers; which of them are key serials,
 * strings or lengths depends on the operation (Falco decodes a few as
 * strings; here a string argument is its user address). */
#define KESTREL_PARAMS_KEYCTL(PARAM)                                                               \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(operation, KPT_FLAGS32, KPS_ARG0, KFS_KEYCTL_OPERATION)                              \
	PARAM(arg2, KPT_UINT64, KPS_ARG1, KFS_NONE)                                                \
	PARAM(arg3, KPT_UINT64, KPS_ARG2, KFS_NONE)                                                \
	PARAM(arg4, KPT_UINT64, KPS_ARG3, KFS_NONE)                                                \
	PARAM(arg5, KPT_UINT64, KPS_ARG4, KFS_NONE)

/* System V semaphores. semctl's val is the SETVAL value, 0 for every other
 * command (the fourth argument is then a pointer or unused). */
#define KESTREL_PARAMS_SEMCTL(PARAM)                                                               \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(semid, KPT_INT32, KPS_ARG0, KFS_NONE)                                                \
	PARAM(semnum, KPT_INT32, KPS_ARG1, KFS_NONE)                                               \
	PARAM(cmd, KPT_FLAGS32, KPS_ARG2, KFS_SEMCTL_CMD)                                          \
	PARAM(val, KPT_INT32, KPS_CUSTOM, KFS_NONE)

/* semflg: IPC_CREAT/IPC_EXCL and the permission bits in the low 9. */
#define KESTREL_PARAMS_SEMGET(PARAM)                                                               \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(key, KPT_INT32, KPS_ARG0, KFS_NONE)                                                  \
	PARAM(nsems, KPT_INT32, KPS_ARG1, KFS_NONE)                                                \
	PARAM(semflg, KPT_FLAGS32, KPS_ARG2, KFS_SEMGET_FLAGS)

/* The first two struct sembuf of a successful call, read from the caller's
 * array at exit (TOCTOU exposure); zeros for entries beyond nsops and for a
 * failed call. */
#define KESTREL_PARAMS_SEMOP(PARAM)                                                                \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(semid, KPT_INT32, KPS_ARG0, KFS_NONE)                                                \
	PARAM(nsops, KPT_UINT32, KPS_ARG2, KFS_NONE)                                               \
	PARAM(sem_num_0, KPT_UINT32, KPS_CUSTOM, KFS_NONE)                                         \
	PARAM(sem_op_0, KPT_INT32, KPS_CUSTOM, KFS_NONE)                                           \
	PARAM(sem_flg_0, KPT_FLAGS32, KPS_CUSTOM, KFS_SEMOP_FLAGS)                                 \
	PARAM(sem_num_1, KPT_UINT32, KPS_CUSTOM, KFS_NONE)                                         \
	PARAM(sem_op_1, KPT_INT32, KPS_CUSTOM, KFS_NONE)                                           \
	PARAM(sem_flg_1, KPT_FLAGS32, KPS_CUSTOM, KFS_SEMOP_FLAGS)

/* io_uring_enter's sig is the low 32 bits of the sigset pointer, as Falco
 * records it; argsz (the sigset or extended argument's size) is an extra. */
#define KESTREL_PARAMS_IO_URING_ENTER(PARAM)                                                       \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(fd, KPT_FD, KPS_ARG0, KFS_NONE)                                                      \
	PARAM(to_submit, KPT_UINT32, KPS_ARG1, KFS_NONE)                                           \
	PARAM(min_complete, KPT_UINT32, KPS_ARG2, KFS_NONE)                                        \
	PARAM(flags, KPT_FLAGS32, KPS_ARG3, KFS_IO_URING_ENTER_FLAGS)                              \
	PARAM(sig, KPT_UINT32, KPS_ARG4, KFS_NONE)                                                 \
	PARAM(argsz, KPT_UINT64, KPS_ARG5, KFS_NONE)

#define KESTREL_PARAMS_IO_URING_REGISTER(PARAM)                                                    \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(fd, KPT_FD, KPS_ARG0, KFS_NONE)                                                      \
	PARAM(opcode, KPT_FLAGS32, KPS_ARG1, KFS_IO_URING_REGISTER_OPCODE)                         \
	PARAM(arg, KPT_UINT64, KPS_ARG2, KFS_NONE)                                                 \
	PARAM(nr_args, KPT_UINT32, KPS_ARG3, KFS_NONE)

/* process_vm_readv/writev(pid, local_iov, liovcnt, remote_iov, riovcnt,
 * flags): res is the byte count moved (Falco's PT_INT64, -errno on
 * failure). size (an extra) sums the local iovec lengths; data is the first
 * min(res, snaplen) bytes of the local buffers, read at exit (the bytes read
 * from pid, or the bytes written to it), when data capture is on. */
#define KESTREL_PARAMS_PROCESS_VM(PARAM)                                                           \
	PARAM(res, KPT_INT64, KPS_RET, KFS_NONE)                                                   \
	PARAM(pid, KPT_PID, KPS_ARG0, KFS_NONE)                                                    \
	PARAM(size, KPT_UINT64, KPS_CUSTOM, KFS_NONE)                                              \
	PARAM(data, KPT_BYTEBUF, KPS_CUSTOM, KFS_NONE)

#define KESTREL_SYSTEM_EVENTS(EVENT)                                                               \
	EVENT(GETUID, getuid, KESTREL_PARAMS_GETUID)                                               \
	EVENT(GETEUID, geteuid, KESTREL_PARAMS_GETEUID)                                            \
	EVENT(GETGID, getgid, KESTREL_PARAMS_GETGID)                                               \
	EVENT(GETEGID, getegid, KESTREL_PARAMS_GETEGID)                                            \
	EVENT(GETRESUID, getresuid, KESTREL_PARAMS_GETRESUID)                                      \
	EVENT(GETRESGID, getresgid, KESTREL_PARAMS_GETRESGID)                                      \
	EVENT(SETREGID, setregid, KESTREL_PARAMS_SETREGID)                                         \
	EVENT(SETSID, setsid, KESTREL_PARAMS_SETSID)                                               \
	EVENT(SETPGID, setpgid, KESTREL_PARAMS_SETPGID)                                            \
	EVENT(GETRLIMIT, getrlimit, KESTREL_PARAMS_GETRLIMIT)                                      \
	EVENT(SETRLIMIT, setrlimit, KESTREL_PARAMS_GETRLIMIT)                                      \
	EVENT(PRLIMIT64, prlimit64, KESTREL_PARAMS_PRLIMIT64)                                      \
	EVENT(BRK, brk, KESTREL_PARAMS_BRK)                                                        \
	EVENT(MUNMAP, munmap, KESTREL_PARAMS_MUNMAP)                                               \
	EVENT(MLOCK, mlock, KESTREL_PARAMS_MLOCK)                                                  \
	EVENT(MLOCK2, mlock2, KESTREL_PARAMS_MLOCK2)                                               \
	EVENT(MLOCKALL, mlockall, KESTREL_PARAMS_MLOCKALL)                                         \
	EVENT(MUNLOCK, munlock, KESTREL_PARAMS_MLOCK)                                              \
	EVENT(MUNLOCKALL, munlockall, KESTREL_PARAMS_MUNLOCKALL)                                   \
	EVENT(NANOSLEEP, nanosleep, KESTREL_PARAMS_NANOSLEEP)                                      \
	EVENT(FUTEX, futex, KESTREL_PARAMS_FUTEX)                                                  \
	EVENT(KEYCTL, keyctl, KESTREL_PARAMS_KEYCTL)                                               \
	EVENT(SEMCTL, semctl, KESTREL_PARAMS_SEMCTL)                                               \
	EVENT(SEMGET, semget, KESTREL_PARAMS_SEMGET)                                               \
	EVENT(SEMOP, semop, KESTREL_PARAMS_SEMOP)                                                  \
	EVENT(IO_URING_ENTER, io_uring_enter, KESTREL_PARAMS_IO_URING_ENTER)                       \
	EVENT(IO_URING_REGISTER, io_uring_register, KESTREL_PARAMS_IO_URING_REGISTER)              \
	EVENT(PROCESS_VM_READV, process_vm_readv, KESTREL_PARAMS_PROCESS_VM)                       \
	EVENT(PROCESS_VM_WRITEV, process_vm_writev, KESTREL_PARAMS_PROCESS_VM)

#endif /* KESTREL_SHARED_SCHEMA_SYSTEM_EVENTS_H */
