/* SPDX-License-Identifier: Apache-2.0 */
/* Kernel-surface events of the schema; see ../event_schema.h for the format. */
#ifndef KESTREL_SHARED_SCHEMA_KERNEL_EVENTS_H
#define KESTREL_SHARED_SCHEMA_KERNEL_EVENTS_H

/* Module parameters and names are strings read from user memory at exit;
 * img is the first snaplen bytes of the module image the caller passed
 * (same exposure: the kernel copied it before loading). */
#define KESTREL_PARAMS_INIT_MODULE(PARAM)                                                          \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(length, KPT_UINT64, KPS_ARG1, KFS_NONE)                                              \
	PARAM(uargs, KPT_CHARBUF, KPS_ARG2, KFS_NONE)                                              \
	PARAM(img, KPT_BYTEBUF, KPS_CUSTOM, KFS_NONE)

/* The module file's path comes from the kernel's struct file of fd, so no
 * other thread can swap it. */
#define KESTREL_PARAMS_FINIT_MODULE(PARAM)                                                         \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(fd, KPT_FD, KPS_ARG0, KFS_NONE)                                                      \
	PARAM(uargs, KPT_CHARBUF, KPS_ARG1, KFS_NONE)                                              \
	PARAM(flags, KPT_FLAGS32, KPS_ARG2, KFS_NONE)                                              \
	PARAM(path, KPT_PATH, KPS_CUSTOM, KFS_NONE)

#define KESTREL_PARAMS_DELETE_MODULE(PARAM)                                                        \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(name, KPT_CHARBUF, KPS_ARG0, KFS_NONE)                                               \
	PARAM(flags, KPT_FLAGS32, KPS_ARG1, KFS_NONE)

/* fd is the return value, as Falco names it: a new fd for the commands
 * that create one (BPF_PROG_LOAD, BPF_MAP_CREATE ...), 0 or -errno else. */
#define KESTREL_PARAMS_BPF(PARAM)                                                                  \
	PARAM(fd, KPT_FD, KPS_RET, KFS_NONE)                                                       \
	PARAM(cmd, KPT_FLAGS32, KPS_ARG0, KFS_BPF_CMD)                                             \
	PARAM(size, KPT_UINT32, KPS_ARG2, KFS_NONE)

/* type and config come from the caller's perf_event_attr, read at exit
 * (the kernel's copy is not reachable from the exit hook). */
#define KESTREL_PARAMS_PERF_EVENT_OPEN(PARAM)                                                      \
	PARAM(res, KPT_FD, KPS_RET, KFS_NONE)                                                      \
	PARAM(pid, KPT_PID, KPS_ARG1, KFS_NONE)                                                    \
	PARAM(cpu, KPT_INT32, KPS_ARG2, KFS_NONE)                                                  \
	PARAM(group_fd, KPT_FD, KPS_ARG3, KFS_NONE)                                                \
	PARAM(flags, KPT_FLAGS32, KPS_ARG4, KFS_NONE)                                              \
	PARAM(type, KPT_UINT32, KPS_CUSTOM, KFS_NONE)                                              \
	PARAM(config, KPT_UINT64, KPS_CUSTOM, KFS_NONE)

#define KESTREL_PARAMS_USERFAULTFD(PARAM)                                                          \
	PARAM(res, KPT_FD, KPS_RET, KFS_NONE)                                                      \
	PARAM(flags, KPT_FLAGS32, KPS_ARG0, KFS_NONE)

/* flags, sq_thread_cpu and sq_thread_idle from the caller's
 * io_uring_params; sq/cq_entries and features are what the kernel wrote
 * back (0 on failure). */
#define KESTREL_PARAMS_IO_URING_SETUP(PARAM)                                                       \
	PARAM(res, KPT_FD, KPS_RET, KFS_NONE)                                                      \
	PARAM(entries, KPT_UINT32, KPS_ARG0, KFS_NONE)                                             \
	PARAM(flags, KPT_FLAGS32, KPS_CUSTOM, KFS_NONE)                                            \
	PARAM(sq_entries, KPT_UINT32, KPS_CUSTOM, KFS_NONE)                                        \
	PARAM(cq_entries, KPT_UINT32, KPS_CUSTOM, KFS_NONE)                                        \
	PARAM(sq_thread_cpu, KPT_UINT32, KPS_CUSTOM, KFS_NONE)                                     \
	PARAM(sq_thread_idle, KPT_UINT32, KPS_CUSTOM, KFS_NONE)                                    \
	PARAM(features, KPT_UINT32, KPS_CUSTOM, KFS_NONE)

/* request prints in hex: its bits encode direction, size, type, number. */
#define KESTREL_PARAMS_IOCTL(PARAM)                                                                \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(fd, KPT_FD, KPS_ARG0, KFS_NONE)                                                      \
	PARAM(request, KPT_FLAGS32, KPS_ARG1, KFS_NONE)                                            \
	PARAM(argument, KPT_UINT64, KPS_ARG2, KFS_NONE)

#define KESTREL_PARAMS_SECCOMP(PARAM)                                                              \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(op, KPT_FLAGS32, KPS_ARG0, KFS_SECCOMP_OP)                                           \
	PARAM(flags, KPT_FLAGS32, KPS_ARG1, KFS_NONE)

#define KESTREL_KERNEL_EVENTS(EVENT)                                                               \
	EVENT(INIT_MODULE, init_module, KESTREL_PARAMS_INIT_MODULE)                                \
	EVENT(FINIT_MODULE, finit_module, KESTREL_PARAMS_FINIT_MODULE)                             \
	EVENT(DELETE_MODULE, delete_module, KESTREL_PARAMS_DELETE_MODULE)                          \
	EVENT(BPF, bpf, KESTREL_PARAMS_BPF)                                                        \
	EVENT(PERF_EVENT_OPEN, perf_event_open, KESTREL_PARAMS_PERF_EVENT_OPEN)                    \
	EVENT(USERFAULTFD, userfaultfd, KESTREL_PARAMS_USERFAULTFD)                                \
	EVENT(IO_URING_SETUP, io_uring_setup, KESTREL_PARAMS_IO_URING_SETUP)                       \
	EVENT(IOCTL, ioctl, KESTREL_PARAMS_IOCTL)                                                  \
	EVENT(SECCOMP, seccomp, KESTREL_PARAMS_SECCOMP)

#endif /* KESTREL_SHARED_SCHEMA_KERNEL_EVENTS_H */
