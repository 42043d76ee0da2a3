/* SPDX-License-Identifier: Apache-2.0 */
/* Descriptor events of the schema: calls that create, lock or close
 * descriptors, and calls that wait on them; see ../event_schema.h for the
 * format.
 *
 * Parameter names are those of Falco's exit events (driver/event_table.c,
 * PPME_SYSCALL_<NAME>_X), with the same meaning; Kestrel's extras follow
 * Falco's. Flag words keep the kernel's raw value (Int()) and print with the
 * names Falco prints for them.
 *
 * What user space derives instead of the probe copying it:
 * - the type of a new descriptor (pipe, eventfd, signalfd, timerfd, inotify,
 *   epoll, pidfd) is the event's own: no path is read for them;
 * - close_range's closed descriptors are every one of the thread's fd table
 *   in [first, last] (or, with CLOSE_RANGE_CLOEXEC, marked close-on-exec);
 * - flock changes no descriptor; the engine keeps nothing from it but the
 *   event.
 *
 * TOCTOU: pipe's fd pair and poll's revents are read from user memory at
 * exit, where the kernel wrote them; another thread may rewrite them in
 * between. pipe's `ino` comes from fd1's struct file. signalfd's mask and
 * ppoll's timeout and sigmask are read from user memory at exit (see
 * file_events.h).
 */
#ifndef KESTREL_SHARED_SCHEMA_DESCRIPTOR_EVENTS_H
#define KESTREL_SHARED_SCHEMA_DESCRIPTOR_EVENTS_H

/* The two descriptors pipe wrote to the caller's array (-1 when the call
 * failed or the array cannot be read) and the pipe's inode, from fd1's
 * struct file (0 on failure): both ends share it. */
#define KESTREL_PARAMS_PIPE_ENDS(PARAM)                                                            \
	PARAM(fd1, KPT_FD, KPS_CUSTOM, KFS_NONE)                                                   \
	PARAM(fd2, KPT_FD, KPS_CUSTOM, KFS_NONE)                                                   \
	PARAM(ino, KPT_UINT64, KPS_CUSTOM, KFS_NONE)

#define KESTREL_PARAMS_PIPE(PARAM)                                                                 \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	KESTREL_PARAMS_PIPE_ENDS(PARAM)

#define KESTREL_PARAMS_PIPE2(PARAM)                                                                \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(flags, KPT_FLAGS32, KPS_ARG1, KFS_FD_CREATE_FLAGS)                                   \
	KESTREL_PARAMS_PIPE_ENDS(PARAM)

/* initval is an unsigned int: the kernel reads the low 32 bits. eventfd has
 * no flags argument: `flags` is always 0, as in Falco, so that eventfd and
 * eventfd2 read alike. */
#define KESTREL_PARAMS_EVENTFD(PARAM)                                                              \
	PARAM(res, KPT_FD, KPS_RET, KFS_NONE)                                                      \
	PARAM(initval, KPT_UINT32, KPS_ARG0, KFS_NONE)                                             \
	PARAM(flags, KPT_FLAGS32, KPS_CUSTOM, KFS_FD_CREATE_FLAGS)

#define KESTREL_PARAMS_EVENTFD2(PARAM)                                                             \
	PARAM(res, KPT_FD, KPS_RET, KFS_NONE)                                                      \
	PARAM(flags, KPT_FLAGS32, KPS_ARG1, KFS_FD_CREATE_FLAGS)                                   \
	PARAM(initval, KPT_UINT32, KPS_ARG0, KFS_NONE)

/* `fd` is -1 to create a signalfd, or the one to update. `mask` holds
 * signals 1..32 of the caller's sigset (bit n-1 = signal n), read from user
 * memory; 0 when it cannot be read. signalfd has no flags: always 0. */
#define KESTREL_PARAMS_SIGNALFD(PARAM)                                                             \
	PARAM(res, KPT_FD, KPS_RET, KFS_NONE)                                                      \
	PARAM(fd, KPT_FD, KPS_ARG0, KFS_NONE)                                                      \
	PARAM(mask, KPT_UINT32, KPS_CUSTOM, KFS_NONE)                                              \
	PARAM(flags, KPT_FLAGS32, KPS_CUSTOM, KFS_FD_CREATE_FLAGS)

#define KESTREL_PARAMS_SIGNALFD4(PARAM)                                                            \
	PARAM(res, KPT_FD, KPS_RET, KFS_NONE)                                                      \
	PARAM(flags, KPT_FLAGS32, KPS_ARG3, KFS_FD_CREATE_FLAGS)                                   \
	PARAM(fd, KPT_FD, KPS_ARG0, KFS_NONE)                                                      \
	PARAM(mask, KPT_UINT32, KPS_CUSTOM, KFS_NONE)

/* clockid is a clockid_t (CLOCK_MONOTONIC = 1 ...); TFD_* flags are the
 * O_* values of the same names. */
#define KESTREL_PARAMS_TIMERFD_CREATE(PARAM)                                                       \
	PARAM(res, KPT_FD, KPS_RET, KFS_NONE)                                                      \
	PARAM(clockid, KPT_INT32, KPS_ARG0, KFS_NONE)                                              \
	PARAM(flags, KPT_FLAGS32, KPS_ARG1, KFS_FD_CREATE_FLAGS)

/* inotify_init has no flags argument: always 0, as in Falco. */
#define KESTREL_PARAMS_INOTIFY_INIT(PARAM)                                                         \
	PARAM(res, KPT_FD, KPS_RET, KFS_NONE)                                                      \
	PARAM(flags, KPT_FLAGS32, KPS_CUSTOM, KFS_FD_CREATE_FLAGS)

#define KESTREL_PARAMS_INOTIFY_INIT1(PARAM)                                                        \
	PARAM(res, KPT_FD, KPS_RET, KFS_NONE)                                                      \
	PARAM(flags, KPT_FLAGS32, KPS_ARG0, KFS_FD_CREATE_FLAGS)

/* Falco types epoll's new descriptor as an errno value, not an fd. */
#define KESTREL_PARAMS_EPOLL_CREATE(PARAM)                                                         \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(size, KPT_INT32, KPS_ARG0, KFS_NONE)

#define KESTREL_PARAMS_EPOLL_CREATE1(PARAM)                                                        \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(flags, KPT_FLAGS32, KPS_ARG0, KFS_EPOLL_CREATE1_FLAGS)

#define KESTREL_PARAMS_CLOSE_RANGE(PARAM)                                                          \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(first, KPT_UINT32, KPS_ARG0, KFS_NONE)                                               \
	PARAM(last, KPT_UINT32, KPS_ARG1, KFS_NONE)                                                \
	PARAM(flags, KPT_FLAGS32, KPS_ARG2, KFS_CLOSE_RANGE_FLAGS)

#define KESTREL_PARAMS_PIDFD_OPEN(PARAM)                                                           \
	PARAM(fd, KPT_FD, KPS_RET, KFS_NONE)                                                       \
	PARAM(pid, KPT_PID, KPS_ARG0, KFS_NONE)                                                    \
	PARAM(flags, KPT_FLAGS32, KPS_ARG1, KFS_PIDFD_OPEN_FLAGS)

/* The new fd is a copy of another process's descriptor, which this
 * process's fd table never saw: the extras `path`, `dev` and `ino` are read
 * from its struct file (empty and 0 on failure). */
#define KESTREL_PARAMS_PIDFD_GETFD(PARAM)                                                          \
	PARAM(fd, KPT_FD, KPS_RET, KFS_NONE)                                                       \
	PARAM(pid_fd, KPT_FD, KPS_ARG0, KFS_NONE)                                                  \
	PARAM(target_fd, KPT_FD, KPS_ARG1, KFS_NONE)                                               \
	PARAM(flags, KPT_UINT32, KPS_ARG2, KFS_NONE)                                               \
	PARAM(path, KPT_PATH, KPS_CUSTOM, KFS_NONE)                                                \
	PARAM(dev, KPT_UINT32, KPS_CUSTOM, KFS_NONE)                                               \
	PARAM(ino, KPT_UINT64, KPS_CUSTOM, KFS_NONE)

/* The handle names no path: path, dev and ino come from the opened struct
 * file only (empty and 0 on failure). */
#define KESTREL_PARAMS_OPEN_BY_HANDLE_AT(PARAM)                                                    \
	PARAM(fd, KPT_FD, KPS_RET, KFS_NONE)                                                       \
	PARAM(mountfd, KPT_FD, KPS_ARG0, KFS_NONE)                                                 \
	PARAM(flags, KPT_FLAGS32, KPS_ARG2, KFS_OPEN_FLAGS)                                        \
	PARAM(path, KPT_PATH, KPS_CUSTOM, KFS_NONE)                                                \
	PARAM(dev, KPT_UINT32, KPS_CUSTOM, KFS_NONE)                                               \
	PARAM(ino, KPT_UINT64, KPS_CUSTOM, KFS_NONE)

#define KESTREL_PARAMS_FLOCK(PARAM)                                                                \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(fd, KPT_FD, KPS_ARG0, KFS_NONE)                                                      \
	PARAM(operation, KPT_FLAGS32, KPS_ARG1, KFS_FLOCK_OPERATION)

/* maxevents is a C int (Falco types it as a signed 64-bit value). */
#define KESTREL_PARAMS_EPOLL_WAIT(PARAM)                                                           \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(maxevents, KPT_INT32, KPS_ARG2, KFS_NONE)

#define KESTREL_PARAMS_SELECT(PARAM) PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)

/* `fds` holds the first KESTREL_MAX_FDLIST pollfds of the caller's array,
 * each descriptor with the events the kernel returned (revents), read from
 * user memory at exit where the kernel wrote them. poll's timeout is in
 * milliseconds (-1: none). */
#define KESTREL_PARAMS_POLL(PARAM)                                                                 \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(timeout, KPT_INT32, KPS_ARG2, KFS_NONE)                                              \
	PARAM(fds, KPT_FDLIST, KPS_CUSTOM, KFS_POLL_EVENTS)

/* ppoll's timeout is the caller's timespec in nanoseconds, read at exit:
 * the kernel has rewritten it with the time that was left, as Falco's exit
 * event reads it too. Empty when the caller passed none (wait forever).
 * sigmask holds signals 1..32 of the mask it passed, 0 without one. */
#define KESTREL_PARAMS_PPOLL(PARAM)                                                                \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(fds, KPT_FDLIST, KPS_CUSTOM, KFS_POLL_EVENTS)                                        \
	PARAM(timeout, KPT_UINT64, KPS_CUSTOM, KFS_NONE)                                           \
	PARAM(sigmask, KPT_UINT32, KPS_CUSTOM, KFS_NONE)

#define KESTREL_DESCRIPTOR_EVENTS(EVENT)                                                           \
	EVENT(PIPE, pipe, KESTREL_PARAMS_PIPE)                                                     \
	EVENT(PIPE2, pipe2, KESTREL_PARAMS_PIPE2)                                                  \
	EVENT(EVENTFD, eventfd, KESTREL_PARAMS_EVENTFD)                                            \
	EVENT(EVENTFD2, eventfd2, KESTREL_PARAMS_EVENTFD2)                                         \
	EVENT(SIGNALFD, signalfd, KESTREL_PARAMS_SIGNALFD)                                         \
	EVENT(SIGNALFD4, signalfd4, KESTREL_PARAMS_SIGNALFD4)                                      \
	EVENT(TIMERFD_CREATE, timerfd_create, KESTREL_PARAMS_TIMERFD_CREATE)                       \
	EVENT(INOTIFY_INIT, inotify_init, KESTREL_PARAMS_INOTIFY_INIT)                             \
	EVENT(INOTIFY_INIT1, inotify_init1, KESTREL_PARAMS_INOTIFY_INIT1)                          \
	EVENT(EPOLL_CREATE, epoll_create, KESTREL_PARAMS_EPOLL_CREATE)                             \
	EVENT(EPOLL_CREATE1, epoll_create1, KESTREL_PARAMS_EPOLL_CREATE1)                          \
	EVENT(CLOSE_RANGE, close_range, KESTREL_PARAMS_CLOSE_RANGE)                                \
	EVENT(PIDFD_OPEN, pidfd_open, KESTREL_PARAMS_PIDFD_OPEN)                                   \
	EVENT(PIDFD_GETFD, pidfd_getfd, KESTREL_PARAMS_PIDFD_GETFD)                                \
	EVENT(OPEN_BY_HANDLE_AT, open_by_handle_at, KESTREL_PARAMS_OPEN_BY_HANDLE_AT)              \
	EVENT(FLOCK, flock, KESTREL_PARAMS_FLOCK)                                                  \
	EVENT(EPOLL_WAIT, epoll_wait, KESTREL_PARAMS_EPOLL_WAIT)                                   \
	EVENT(SELECT, select, KESTREL_PARAMS_SELECT)                                               \
	EVENT(POLL, poll, KESTREL_PARAMS_POLL)                                                     \
	EVENT(PPOLL, ppoll, KESTREL_PARAMS_PPOLL)

#endif /* KESTREL_SHARED_SCHEMA_DESCRIPTOR_EVENTS_H */
