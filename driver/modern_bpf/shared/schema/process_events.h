/* SPDX-License-Identifier: Apache-2.0 */
/* Process events of the schema; see ../event_schema.h for the format. */
#ifndef KESTREL_SHARED_SCHEMA_PROCESS_EVENTS_H
#define KESTREL_SHARED_SCHEMA_PROCESS_EVENTS_H

/*
 * What an exec leaves behind, written by fill_exec (process_fillers.bpf.c).
 *
 * After a successful exec the caller's image is gone, so nothing is read
 * from the pointers the caller passed: the exe is the new mm->exe_file and
 * argv is the copy the kernel itself wrote between mm->arg_start and
 * arg_end, which no user code has run against yet (TOCTOU-free). A failed
 * exec keeps its image, and exe/argv come from the caller's pointers: another
 * thread may have rewritten them after the kernel's copy (TOCTOU exposure);
 * the exe_* facts are then 0. Identity and credentials are those of the
 * task after the call (the new ones on success).
 */
#define KESTREL_PARAMS_EXEC_COMMON(PARAM)                                                          \
	PARAM(exe, KPT_PATH, KPS_CUSTOM, KFS_NONE)                                                 \
	PARAM(argv, KPT_CHARBUF_ARRAY, KPS_CUSTOM, KFS_NONE)                                       \
	PARAM(pid, KPT_PID, KPS_CUSTOM, KFS_NONE)                                                  \
	PARAM(tid, KPT_PID, KPS_CUSTOM, KFS_NONE)                                                  \
	PARAM(ppid, KPT_PID, KPS_CUSTOM, KFS_NONE)                                                 \
	PARAM(comm, KPT_CHARBUF, KPS_CUSTOM, KFS_NONE)                                             \
	PARAM(uid, KPT_UID, KPS_CUSTOM, KFS_NONE)                                                  \
	PARAM(gid, KPT_GID, KPS_CUSTOM, KFS_NONE)                                                  \
	PARAM(euid, KPT_UID, KPS_CUSTOM, KFS_NONE)                                                 \
	PARAM(loginuid, KPT_UID, KPS_CUSTOM, KFS_NONE)                                             \
	PARAM(cgroup_id, KPT_UINT64, KPS_CUSTOM, KFS_NONE)                                         \
	PARAM(cap_effective, KPT_UINT64, KPS_CUSTOM, KFS_NONE)                                     \
	PARAM(cap_permitted, KPT_UINT64, KPS_CUSTOM, KFS_NONE)                                     \
	PARAM(cap_inheritable, KPT_UINT64, KPS_CUSTOM, KFS_NONE)                                   \
	PARAM(exe_ino, KPT_UINT64, KPS_CUSTOM, KFS_NONE)                                           \
	PARAM(exe_ctime, KPT_UINT64, KPS_CUSTOM, KFS_NONE)                                         \
	PARAM(exe_mtime, KPT_UINT64, KPS_CUSTOM, KFS_NONE)                                         \
	PARAM(exe_writable, KPT_UINT32, KPS_CUSTOM, KFS_NONE)                                      \
	PARAM(exe_memfd, KPT_UINT32, KPS_CUSTOM, KFS_NONE)                                         \
	PARAM(exe_upper_layer, KPT_UINT32, KPS_CUSTOM, KFS_NONE)                                   \
	PARAM(tty, KPT_UINT32, KPS_CUSTOM, KFS_NONE)                                               \
	PARAM(sid, KPT_PID, KPS_CUSTOM, KFS_NONE)                                                  \
	PARAM(pgid, KPT_PID, KPS_CUSTOM, KFS_NONE)                                                 \
	PARAM(cwd, KPT_PATH, KPS_CUSTOM, KFS_NONE)

#define KESTREL_PARAMS_EXECVE(PARAM)                                                               \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	KESTREL_PARAMS_EXEC_COMMON(PARAM)

#define KESTREL_PARAMS_EXECVEAT(PARAM)                                                             \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(dirfd, KPT_FD, KPS_ARG0, KFS_NONE)                                                   \
	PARAM(flags, KPT_FLAGS32, KPS_ARG4, KFS_AT_FLAGS)                                          \
	KESTREL_PARAMS_EXEC_COMMON(PARAM)

/*
 * The clone family. The caller's record is written from sched_process_fork,
 * before the child can be woken, so it precedes everything the child does
 * in timestamp and in ring order; its ts_ns is the child's creation time.
 * A failed call has no fork and is written at syscall exit. The child's own
 * return (res 0) is a second record, written at the child's syscall exit.
 * child_pid is the new task's process id (its tgid) in the caller's pid
 * namespace; res is its thread id, as the syscall returns it.
 */
#define KESTREL_PARAMS_CLONE_COMMON(PARAM) PARAM(child_pid, KPT_PID, KPS_CUSTOM, KFS_NONE)

/* x86_64 clone(flags, newsp, parent_tid, child_tid, tls). */
#define KESTREL_PARAMS_CLONE(PARAM)                                                                \
	PARAM(res, KPT_PID, KPS_RET, KFS_NONE)                                                     \
	PARAM(flags, KPT_FLAGS32, KPS_ARG0, KFS_CLONE_FLAGS)                                       \
	KESTREL_PARAMS_CLONE_COMMON(PARAM)

/* clone3's flags are a u64 in a user struct, read at exit (TOCTOU: the
 * struct may have been rewritten since the kernel's copy); bits above 31
 * (CLONE_CLEAR_SIGHAND, CLONE_INTO_CGROUP) are not kept. */
#define KESTREL_PARAMS_CLONE3(PARAM)                                                               \
	PARAM(res, KPT_PID, KPS_RET, KFS_NONE)                                                     \
	PARAM(size, KPT_UINT64, KPS_ARG1, KFS_NONE)                                                \
	PARAM(flags, KPT_FLAGS32, KPS_CUSTOM, KFS_CLONE_FLAGS)                                     \
	KESTREL_PARAMS_CLONE_COMMON(PARAM)

#define KESTREL_PARAMS_FORK(PARAM)                                                                 \
	PARAM(res, KPT_PID, KPS_RET, KFS_NONE)                                                     \
	KESTREL_PARAMS_CLONE_COMMON(PARAM)

/* Credentials and namespaces. The ids are the caller's arguments (the
 * kernel copies them in registers: nothing to race). */
#define KESTREL_PARAMS_SETUID(PARAM)                                                               \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(uid, KPT_UID, KPS_ARG0, KFS_NONE)

#define KESTREL_PARAMS_SETGID(PARAM)                                                               \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(gid, KPT_GID, KPS_ARG0, KFS_NONE)

#define KESTREL_PARAMS_SETREUID(PARAM)                                                             \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(ruid, KPT_UID, KPS_ARG0, KFS_NONE)                                                   \
	PARAM(euid, KPT_UID, KPS_ARG1, KFS_NONE)

#define KESTREL_PARAMS_SETRESUID(PARAM)                                                            \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(ruid, KPT_UID, KPS_ARG0, KFS_NONE)                                                   \
	PARAM(euid, KPT_UID, KPS_ARG1, KFS_NONE)                                                   \
	PARAM(suid, KPT_UID, KPS_ARG2, KFS_NONE)

#define KESTREL_PARAMS_SETRESGID(PARAM)                                                            \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(rgid, KPT_GID, KPS_ARG0, KFS_NONE)                                                   \
	PARAM(egid, KPT_GID, KPS_ARG1, KFS_NONE)                                                   \
	PARAM(sgid, KPT_GID, KPS_ARG2, KFS_NONE)

#define KESTREL_PARAMS_SETNS(PARAM)                                                                \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(fd, KPT_FD, KPS_ARG0, KFS_NONE)                                                      \
	PARAM(nstype, KPT_FLAGS32, KPS_ARG1, KFS_UNSHARE_FLAGS)

#define KESTREL_PARAMS_UNSHARE(PARAM)                                                              \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(flags, KPT_FLAGS32, KPS_ARG0, KFS_UNSHARE_FLAGS)

/* name: for PR_SET_NAME, the caller's comm as the kernel holds it at exit
 * (the new name on success, truncated to 15 bytes as the kernel stores it;
 * the unchanged name on failure), so a reader of the stream knows what the
 * thread is called without reading /proc. Empty for every other option.
 * A rename through /proc/PID/comm is not a prctl and is not seen here. */
#define KESTREL_PARAMS_PRCTL(PARAM)                                                                \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(option, KPT_FLAGS32, KPS_ARG0, KFS_PRCTL_OPTION)                                     \
	PARAM(arg2, KPT_UINT64, KPS_ARG1, KFS_NONE)                                                \
	PARAM(arg3, KPT_UINT64, KPS_ARG2, KFS_NONE)                                                \
	PARAM(arg4, KPT_UINT64, KPS_ARG3, KFS_NONE)                                                \
	PARAM(arg5, KPT_UINT64, KPS_ARG4, KFS_NONE)                                                \
	PARAM(name, KPT_CHARBUF, KPS_CUSTOM, KFS_NONE)

#define KESTREL_PARAMS_PTRACE(PARAM)                                                               \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(request, KPT_FLAGS32, KPS_ARG0, KFS_PTRACE_REQUEST)                                  \
	PARAM(pid, KPT_PID, KPS_ARG1, KFS_NONE)                                                    \
	PARAM(addr, KPT_UINT64, KPS_ARG2, KFS_NONE)                                                \
	PARAM(data, KPT_UINT64, KPS_ARG3, KFS_NONE)

#define KESTREL_PARAMS_KILL(PARAM)                                                                 \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(pid, KPT_PID, KPS_ARG0, KFS_NONE)                                                    \
	PARAM(sig, KPT_FLAGS32, KPS_ARG1, KFS_SIGNAL)

#define KESTREL_PARAMS_TKILL(PARAM)                                                                \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(tid, KPT_PID, KPS_ARG0, KFS_NONE)                                                    \
	PARAM(sig, KPT_FLAGS32, KPS_ARG1, KFS_SIGNAL)

#define KESTREL_PARAMS_TGKILL(PARAM)                                                               \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(tgid, KPT_PID, KPS_ARG0, KFS_NONE)                                                   \
	PARAM(tid, KPT_PID, KPS_ARG1, KFS_NONE)                                                    \
	PARAM(sig, KPT_FLAGS32, KPS_ARG2, KFS_SIGNAL)

/* capset: on success the sets are the task's new credentials (the kernel's
 * copy: capset only ever changes the caller); on failure the caller's
 * cap_user_header/data as read at exit (TOCTOU exposure). Sets are the two
 * 32-bit words of _LINUX_CAPABILITY_VERSION_3 joined into 64 bits. */
#define KESTREL_PARAMS_CAPSET(PARAM)                                                               \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(cap_effective, KPT_UINT64, KPS_CUSTOM, KFS_NONE)                                     \
	PARAM(cap_permitted, KPT_UINT64, KPS_CUSTOM, KFS_NONE)                                     \
	PARAM(cap_inheritable, KPT_UINT64, KPS_CUSTOM, KFS_NONE)

/* Paths of chroot and chdir are read from user memory at exit: the kernel
 * keeps no copy of the string (TOCTOU exposure). */
#define KESTREL_PARAMS_CHROOT(PARAM)                                                               \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(path, KPT_PATH, KPS_ARG0, KFS_NONE)

#define KESTREL_PARAMS_FCHDIR(PARAM)                                                               \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(fd, KPT_FD, KPS_ARG0, KFS_NONE)

#define KESTREL_PROCESS_EVENTS(EVENT)                                                              \
	EVENT(EXECVE, execve, KESTREL_PARAMS_EXECVE)                                               \
	EVENT(EXECVEAT, execveat, KESTREL_PARAMS_EXECVEAT)                                         \
	EVENT(CLONE, clone, KESTREL_PARAMS_CLONE)                                                  \
	EVENT(CLONE3, clone3, KESTREL_PARAMS_CLONE3)                                               \
	EVENT(FORK, fork, KESTREL_PARAMS_FORK)                                                     \
	EVENT(VFORK, vfork, KESTREL_PARAMS_FORK)                                                   \
	EVENT(SETUID, setuid, KESTREL_PARAMS_SETUID)                                               \
	EVENT(SETGID, setgid, KESTREL_PARAMS_SETGID)                                               \
	EVENT(SETREUID, setreuid, KESTREL_PARAMS_SETREUID)                                         \
	EVENT(SETRESUID, setresuid, KESTREL_PARAMS_SETRESUID)                                      \
	EVENT(SETRESGID, setresgid, KESTREL_PARAMS_SETRESGID)                                      \
	EVENT(SETNS, setns, KESTREL_PARAMS_SETNS)                                                  \
	EVENT(UNSHARE, unshare, KESTREL_PARAMS_UNSHARE)                                            \
	EVENT(PRCTL, prctl, KESTREL_PARAMS_PRCTL)                                                  \
	EVENT(PTRACE, ptrace, KESTREL_PARAMS_PTRACE)                                               \
	EVENT(KILL, kill, KESTREL_PARAMS_KILL)                                                     \
	EVENT(TKILL, tkill, KESTREL_PARAMS_TKILL)                                                  \
	EVENT(TGKILL, tgkill, KESTREL_PARAMS_TGKILL)                                               \
	EVENT(CAPSET, capset, KESTREL_PARAMS_CAPSET)                                               \
	EVENT(CHROOT, chroot, KESTREL_PARAMS_CHROOT)                                               \
	EVENT(CHDIR, chdir, KESTREL_PARAMS_CHROOT)                                                 \
	EVENT(FCHDIR, fchdir, KESTREL_PARAMS_FCHDIR)

/*
 * Process events not tied to one syscall: EVENT(NAME, id, PARAMS) with an
 * explicit id in 16..31 (see event_types.h).
 *
 * PROCESS_EXIT, from sched_process_exit, once per exiting thread. It is
 * reported while exit or exit_group is selected (neither returns, so they
 * have no record of their own). exit_code, signal and core_dumped split the
 * wait status the task leaves (task->exit_code); group_dead is 1 for the
 * last thread of the process.
 */
#define KESTREL_PARAMS_PROCESS_EXIT(PARAM)                                                         \
	PARAM(exit_code, KPT_INT32, KPS_CUSTOM, KFS_NONE)                                          \
	PARAM(signal, KPT_FLAGS32, KPS_CUSTOM, KFS_SIGNAL)                                         \
	PARAM(core_dumped, KPT_UINT32, KPS_CUSTOM, KFS_NONE)                                       \
	PARAM(group_dead, KPT_UINT32, KPS_CUSTOM, KFS_NONE)

#define KESTREL_PROCESS_OTHER_EVENTS(EVENT) EVENT(PROCESS_EXIT, 16, KESTREL_PARAMS_PROCESS_EXIT)

#endif /* KESTREL_SHARED_SCHEMA_PROCESS_EVENTS_H */
