/* SPDX-License-Identifier: Apache-2.0 */
/* Process events of the schema; see ../event_schema.h for the format. */
#ifndef KESTREL_SHARED_SCHEMA_PROCESS_EVENTS_H
#define KESTREL_SHARED_SCHEMA_PROCESS_EVENTS_H

/*
 * Parameter names follow Falco's newest exit events (driver/event_table.c);
 * Kestrel's extras come after them.
 *
 * What an exec leaves behind, written by fill_exec (process_fillers.bpf.c).
 *
 * After a successful exec the caller's image is gone, so nothing is read
 * from the pointers the caller passed: exe, args and env are the copies the
 * kernel itself wrote at the top of the new stack (mm->arg_start..arg_end,
 * env_start..env_end, and the file name it was asked for right after the
 * environment), which no user code has run against yet (TOCTOU-free), and
 * trusted_exepath is the path of the new mm->exe_file. A failed exec keeps
 * its image: exe, args, env and filename come from the caller's pointers
 * (another thread may have rewritten them after the kernel's copy: TOCTOU
 * exposure), trusted_exepath is empty and the exe facts are 0.
 *
 * exe is argv[0] and args argv[1..] (Falco's proc.exe and proc.args), env
 * the environment, each a NUL-separated list. tid, pid, ptid (the parent
 * thread's id), pgid and sid are host (initial namespace) numbers; vpgid is
 * the group's id in the task's own pid namespace. uid and gid are the
 * effective ids, as Falco records them; ruid and rgid the real ones.
 * fdlimit is RLIMIT_NOFILE's soft limit; pgft_* the thread's page faults;
 * vm_* the new image's sizes in KiB. cgroups is "controller=path" for each
 * of cpuset, cpu, cpuacct, io and memory the kernel has, NUL-separated; on
 * the unified (v2) hierarchy every path is the task's cgroup v2 path, as
 * /proc/PID/cgroup shows it ("0::/path"). flags holds the exe facts as
 * Falco's PPM_EXE_* bits (KFS_EXECVE_FLAGS); exe_writable, exe_memfd,
 * exe_upper_layer and exe_lower_layer repeat them one by one.
 * pidns_init_start_ts is the start time (CLOCK_MONOTONIC ns) of the init of
 * the task's pid namespace, as in the clone family's child record. Identity and credentials are
 * those of the task after the call (the new ones on success).
 */
#define KESTREL_PARAMS_EXEC_COMMON(PARAM)                                                          \
	PARAM(exe, KPT_CHARBUF, KPS_CUSTOM, KFS_NONE)                                              \
	PARAM(args, KPT_CHARBUF_ARRAY, KPS_CUSTOM, KFS_NONE)                                       \
	PARAM(tid, KPT_PID, KPS_CUSTOM, KFS_NONE)                                                  \
	PARAM(pid, KPT_PID, KPS_CUSTOM, KFS_NONE)                                                  \
	PARAM(ptid, KPT_PID, KPS_CUSTOM, KFS_NONE)                                                 \
	PARAM(cwd, KPT_PATH, KPS_CUSTOM, KFS_NONE)                                                 \
	PARAM(fdlimit, KPT_UINT64, KPS_CUSTOM, KFS_NONE)                                           \
	PARAM(pgft_maj, KPT_UINT64, KPS_CUSTOM, KFS_NONE)                                          \
	PARAM(pgft_min, KPT_UINT64, KPS_CUSTOM, KFS_NONE)                                          \
	PARAM(vm_size, KPT_UINT32, KPS_CUSTOM, KFS_NONE)                                           \
	PARAM(vm_rss, KPT_UINT32, KPS_CUSTOM, KFS_NONE)                                            \
	PARAM(vm_swap, KPT_UINT32, KPS_CUSTOM, KFS_NONE)                                           \
	PARAM(comm, KPT_CHARBUF, KPS_CUSTOM, KFS_NONE)                                             \
	PARAM(cgroups, KPT_CHARBUF_ARRAY, KPS_CUSTOM, KFS_NONE)                                    \
	PARAM(env, KPT_CHARBUF_ARRAY, KPS_CUSTOM, KFS_NONE)                                        \
	PARAM(tty, KPT_UINT32, KPS_CUSTOM, KFS_NONE)                                               \
	PARAM(vpgid, KPT_PID, KPS_CUSTOM, KFS_NONE)                                                \
	PARAM(loginuid, KPT_UID, KPS_CUSTOM, KFS_NONE)                                             \
	PARAM(flags, KPT_FLAGS32, KPS_CUSTOM, KFS_EXECVE_FLAGS)                                    \
	PARAM(cap_inheritable, KPT_UINT64, KPS_CUSTOM, KFS_NONE)                                   \
	PARAM(cap_permitted, KPT_UINT64, KPS_CUSTOM, KFS_NONE)                                     \
	PARAM(cap_effective, KPT_UINT64, KPS_CUSTOM, KFS_NONE)                                     \
	PARAM(exe_ino, KPT_UINT64, KPS_CUSTOM, KFS_NONE)                                           \
	PARAM(exe_ino_ctime, KPT_UINT64, KPS_CUSTOM, KFS_NONE)                                     \
	PARAM(exe_ino_mtime, KPT_UINT64, KPS_CUSTOM, KFS_NONE)                                     \
	PARAM(uid, KPT_UID, KPS_CUSTOM, KFS_NONE)                                                  \
	PARAM(trusted_exepath, KPT_PATH, KPS_CUSTOM, KFS_NONE)                                     \
	PARAM(pgid, KPT_PID, KPS_CUSTOM, KFS_NONE)                                                 \
	PARAM(gid, KPT_GID, KPS_CUSTOM, KFS_NONE)                                                  \
	PARAM(filename, KPT_PATH, KPS_CUSTOM, KFS_NONE)                                            \
	PARAM(ppid, KPT_PID, KPS_CUSTOM, KFS_NONE)                                                 \
	PARAM(ruid, KPT_UID, KPS_CUSTOM, KFS_NONE)                                                 \
	PARAM(rgid, KPT_GID, KPS_CUSTOM, KFS_NONE)                                                 \
	PARAM(euid, KPT_UID, KPS_CUSTOM, KFS_NONE)                                                 \
	PARAM(sid, KPT_PID, KPS_CUSTOM, KFS_NONE)                                                  \
	PARAM(cgroup_id, KPT_UINT64, KPS_CUSTOM, KFS_NONE)                                         \
	PARAM(exe_writable, KPT_UINT32, KPS_CUSTOM, KFS_NONE)                                      \
	PARAM(exe_memfd, KPT_UINT32, KPS_CUSTOM, KFS_NONE)                                         \
	PARAM(exe_upper_layer, KPT_UINT32, KPS_CUSTOM, KFS_NONE)                                   \
	PARAM(exe_lower_layer, KPT_UINT32, KPS_CUSTOM, KFS_NONE)                                   \
	PARAM(pidns_init_start_ts, KPT_UINT64, KPS_CUSTOM, KFS_NONE)

#define KESTREL_PARAMS_EXECVE(PARAM)                                                               \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	KESTREL_PARAMS_EXEC_COMMON(PARAM)

/* at_flags is execveat's own flags argument (Falco's `flags` is the exe
 * facts word of the exec family). */
#define KESTREL_PARAMS_EXECVEAT(PARAM)                                                             \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(dirfd, KPT_FD, KPS_ARG0, KFS_NONE)                                                   \
	PARAM(at_flags, KPT_FLAGS32, KPS_ARG4, KFS_AT_FLAGS)                                       \
	KESTREL_PARAMS_EXEC_COMMON(PARAM)

/*
 * The clone family. The caller's record is written from sched_process_fork,
 * before the child can be woken, so it precedes everything the child does
 * in timestamp and in ring order; its ts_ns is the child's creation time.
 * A failed call has no fork and is written at syscall exit. The child's own
 * return (res 0) is a second record, written at the child's syscall exit.
 *
 * As in Falco, exe .. vpid describe the task that writes the record: the
 * caller in the caller's record, the child in the child's. exe, args, cwd,
 * comm, cgroups, uid (effective) and gid (effective) are what the child
 * inherits at that instant (a clone3 with CLONE_INTO_CGROUP puts the child
 * elsewhere: its own record has its cgroups). tid, pid, ptid are host
 * numbers, vtid and vpid those of the task's own pid namespace (1 for the
 * first process of a new one); pidns_init_start_ts is the start time
 * (CLOCK_MONOTONIC ns) of that namespace's init, in the child's record
 * only (0 in the caller's, as Falco). fdlimit, pgft_* and vm_* as for exec.
 *
 * The caller's record also names the child, so user space can enter it
 * before it runs: child_tid and child_pid are its host thread and process
 * ids (res is the thread id in the caller's namespace), child_vtid and
 * child_vpid its ids in its own pid namespace. What the child's entry needs
 * beyond that is derived from the caller's entry, not copied here: its
 * parent (the caller's process, or the caller's parent under CLONE_PARENT
 * or CLONE_THREAD), exepath, real ids, capabilities, loginuid, exe facts
 * and environment (all inherited unchanged by a fork).
 */
#define KESTREL_PARAMS_CLONE_COMMON(PARAM)                                                         \
	PARAM(exe, KPT_CHARBUF, KPS_CUSTOM, KFS_NONE)                                              \
	PARAM(args, KPT_CHARBUF_ARRAY, KPS_CUSTOM, KFS_NONE)                                       \
	PARAM(tid, KPT_PID, KPS_CUSTOM, KFS_NONE)                                                  \
	PARAM(pid, KPT_PID, KPS_CUSTOM, KFS_NONE)                                                  \
	PARAM(ptid, KPT_PID, KPS_CUSTOM, KFS_NONE)                                                 \
	PARAM(cwd, KPT_PATH, KPS_CUSTOM, KFS_NONE)                                                 \
	PARAM(fdlimit, KPT_INT64, KPS_CUSTOM, KFS_NONE)                                            \
	PARAM(pgft_maj, KPT_UINT64, KPS_CUSTOM, KFS_NONE)                                          \
	PARAM(pgft_min, KPT_UINT64, KPS_CUSTOM, KFS_NONE)                                          \
	PARAM(vm_size, KPT_UINT32, KPS_CUSTOM, KFS_NONE)                                           \
	PARAM(vm_rss, KPT_UINT32, KPS_CUSTOM, KFS_NONE)                                            \
	PARAM(vm_swap, KPT_UINT32, KPS_CUSTOM, KFS_NONE)                                           \
	PARAM(comm, KPT_CHARBUF, KPS_CUSTOM, KFS_NONE)                                             \
	PARAM(cgroups, KPT_CHARBUF_ARRAY, KPS_CUSTOM, KFS_NONE)                                    \
	PARAM(uid, KPT_UID, KPS_CUSTOM, KFS_NONE)                                                  \
	PARAM(gid, KPT_GID, KPS_CUSTOM, KFS_NONE)                                                  \
	PARAM(vtid, KPT_PID, KPS_CUSTOM, KFS_NONE)                                                 \
	PARAM(vpid, KPT_PID, KPS_CUSTOM, KFS_NONE)                                                 \
	PARAM(pidns_init_start_ts, KPT_UINT64, KPS_CUSTOM, KFS_NONE)                               \
	PARAM(child_tid, KPT_PID, KPS_CUSTOM, KFS_NONE)                                            \
	PARAM(child_pid, KPT_PID, KPS_CUSTOM, KFS_NONE)                                            \
	PARAM(child_vtid, KPT_PID, KPS_CUSTOM, KFS_NONE)                                           \
	PARAM(child_vpid, KPT_PID, KPS_CUSTOM, KFS_NONE)

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
	KESTREL_PARAMS_CLONE_COMMON(PARAM)                                                         \
	PARAM(flags, KPT_FLAGS32, KPS_CUSTOM, KFS_CLONE_FLAGS)

/* fork and vfork take no flags: flags is 0, as in Falco. */
#define KESTREL_PARAMS_FORK(PARAM)                                                                 \
	PARAM(res, KPT_PID, KPS_RET, KFS_NONE)                                                     \
	KESTREL_PARAMS_CLONE_COMMON(PARAM)                                                         \
	PARAM(flags, KPT_FLAGS32, KPS_CUSTOM, KFS_CLONE_FLAGS)

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

/* arg2_int is the raw second argument. arg2_str: for PR_SET_NAME and
 * PR_GET_NAME, the caller's comm as the kernel holds it at exit
 * (the new name on success, truncated to 15 bytes as the kernel stores it;
 * the unchanged name on failure), so a reader of the stream knows what the
 * thread is called without reading /proc. Empty for every other option.
 * A rename through /proc/PID/comm is not a prctl and is not seen here. */
#define KESTREL_PARAMS_PRCTL(PARAM)                                                                \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(option, KPT_FLAGS32, KPS_ARG0, KFS_PRCTL_OPTION)                                     \
	PARAM(arg2_int, KPT_INT64, KPS_ARG1, KFS_NONE)                                             \
	PARAM(arg3, KPT_UINT64, KPS_ARG2, KFS_NONE)                                                \
	PARAM(arg4, KPT_UINT64, KPS_ARG3, KFS_NONE)                                                \
	PARAM(arg5, KPT_UINT64, KPS_ARG4, KFS_NONE)                                                \
	PARAM(arg2_str, KPT_CHARBUF, KPS_CUSTOM, KFS_NONE)

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
	PARAM(pid, KPT_PID, KPS_ARG0, KFS_NONE)                                                    \
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
 * PROCESS_EXIT (Falco's procexit), from sched_process_exit, once per
 * exiting thread. It is reported while exit or exit_group is selected
 * (neither returns, so they have no record of their own). status is the
 * wait status the task leaves (task->exit_code), ret its exit code, sig the
 * signal that killed it (0 when it exited), core 1 when it dumped core.
 * reaper_tid is the host tid of the thread that inherits the exiting
 * thread's children, chosen as the kernel will: a live thread of the same
 * process, else the nearest child-subreaper ancestor in the same pid
 * namespace, else that namespace's init; 0 when the thread has no
 * children or is the namespace's last init thread, -1 when the walk was
 * too deep to finish (user space then decides). group_dead (an extra) is 1
 * for the last thread of the process.
 */
#define KESTREL_PARAMS_PROCESS_EXIT(PARAM)                                                         \
	PARAM(status, KPT_INT64, KPS_CUSTOM, KFS_NONE)                                             \
	PARAM(ret, KPT_INT64, KPS_CUSTOM, KFS_NONE)                                                \
	PARAM(sig, KPT_FLAGS32, KPS_CUSTOM, KFS_SIGNAL)                                            \
	PARAM(core, KPT_UINT32, KPS_CUSTOM, KFS_NONE)                                              \
	PARAM(reaper_tid, KPT_PID, KPS_CUSTOM, KFS_NONE)                                           \
	PARAM(group_dead, KPT_UINT32, KPS_CUSTOM, KFS_NONE)

#define KESTREL_PROCESS_OTHER_EVENTS(EVENT) EVENT(PROCESS_EXIT, 16, KESTREL_PARAMS_PROCESS_EXIT)

#endif /* KESTREL_SHARED_SCHEMA_PROCESS_EVENTS_H */
