/* SPDX-License-Identifier: Apache-2.0 */
/* Network events of the schema; see ../event_schema.h for the format. */
#ifndef KESTREL_SHARED_SCHEMA_NETWORK_EVENTS_H
#define KESTREL_SHARED_SCHEMA_NETWORK_EVENTS_H

/*
 * TOCTOU: a `tuple` is read from the kernel's socket after the call, so it
 * is what the kernel acted on and what it chose (source port, peer), and no
 * other thread can rewrite it. An `addr` is the caller's sockaddr read from
 * user memory at exit: another thread may have changed it after the kernel
 * copied it, so detections should prefer the tuple. bind's addr is the
 * exception: on success it is the socket's bound address from the kernel
 * (with the port the kernel picked for port 0), the user's only on failure.
 * A tuple is empty when the call failed (connect: except EINPROGRESS),
 * because a failed socket's addresses are half torn down.
 */

#define KESTREL_PARAMS_SOCKET(PARAM)                                                               \
	PARAM(res, KPT_FD, KPS_RET, KFS_NONE)                                                      \
	PARAM(domain, KPT_FLAGS32, KPS_ARG0, KFS_SOCKET_FAMILY)                                    \
	PARAM(type, KPT_FLAGS32, KPS_ARG1, KFS_SOCKET_TYPE)                                        \
	PARAM(proto, KPT_UINT32, KPS_ARG2, KFS_NONE)

/* The two fds are read from the caller's int[2] after the kernel wrote it. */
#define KESTREL_PARAMS_SOCKETPAIR(PARAM)                                                           \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(domain, KPT_FLAGS32, KPS_ARG0, KFS_SOCKET_FAMILY)                                    \
	PARAM(type, KPT_FLAGS32, KPS_ARG1, KFS_SOCKET_TYPE)                                        \
	PARAM(proto, KPT_UINT32, KPS_ARG2, KFS_NONE)                                               \
	PARAM(fd0, KPT_FD, KPS_CUSTOM, KFS_NONE)                                                   \
	PARAM(fd1, KPT_FD, KPS_CUSTOM, KFS_NONE)

#define KESTREL_PARAMS_CONNECT(PARAM)                                                              \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(fd, KPT_FD, KPS_ARG0, KFS_NONE)                                                      \
	PARAM(addr, KPT_SOCKADDR, KPS_CUSTOM, KFS_NONE)                                            \
	PARAM(tuple, KPT_SOCKTUPLE, KPS_CUSTOM, KFS_NONE)

/* The tuple is the new connection's (the returned fd). */
#define KESTREL_PARAMS_ACCEPT(PARAM)                                                               \
	PARAM(res, KPT_FD, KPS_RET, KFS_NONE)                                                      \
	PARAM(fd, KPT_FD, KPS_ARG0, KFS_NONE)                                                      \
	PARAM(tuple, KPT_SOCKTUPLE, KPS_CUSTOM, KFS_NONE)

#define KESTREL_PARAMS_ACCEPT4(PARAM)                                                              \
	PARAM(res, KPT_FD, KPS_RET, KFS_NONE)                                                      \
	PARAM(fd, KPT_FD, KPS_ARG0, KFS_NONE)                                                      \
	PARAM(flags, KPT_FLAGS32, KPS_ARG3, KFS_ACCEPT_FLAGS)                                      \
	PARAM(tuple, KPT_SOCKTUPLE, KPS_CUSTOM, KFS_NONE)

#define KESTREL_PARAMS_BIND(PARAM)                                                                 \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(fd, KPT_FD, KPS_ARG0, KFS_NONE)                                                      \
	PARAM(addr, KPT_SOCKADDR, KPS_CUSTOM, KFS_NONE)

#define KESTREL_PARAMS_LISTEN(PARAM)                                                               \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(fd, KPT_FD, KPS_ARG0, KFS_NONE)                                                      \
	PARAM(backlog, KPT_INT32, KPS_ARG1, KFS_NONE)

/* res is the byte count moved, size the count asked for; data, empty unless
 * capture_io_data is set, is the bytes moved, cut to the snaplen unless
 * either end's port is in the full-capture range. */
#define KESTREL_PARAMS_SENDTO(PARAM)                                                               \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(fd, KPT_FD, KPS_ARG0, KFS_NONE)                                                      \
	PARAM(size, KPT_UINT64, KPS_ARG2, KFS_NONE)                                                \
	PARAM(flags, KPT_FLAGS32, KPS_ARG3, KFS_MSG_FLAGS)                                         \
	PARAM(addr, KPT_SOCKADDR, KPS_CUSTOM, KFS_NONE)                                            \
	PARAM(tuple, KPT_SOCKTUPLE, KPS_CUSTOM, KFS_NONE)                                          \
	PARAM(data, KPT_BYTEBUF, KPS_CUSTOM, KFS_NONE)

/* addr is the sender the kernel wrote back (empty when it wrote none). */
#define KESTREL_PARAMS_RECVFROM(PARAM) KESTREL_PARAMS_SENDTO(PARAM)

/* size is the sum of the iovec lengths (the first KESTREL_MAX_MSG_IOVECS);
 * data, empty unless capture_io_data is set, comes from those iovecs in
 * order. */
#define KESTREL_PARAMS_SENDMSG(PARAM)                                                              \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(fd, KPT_FD, KPS_ARG0, KFS_NONE)                                                      \
	PARAM(flags, KPT_FLAGS32, KPS_ARG2, KFS_MSG_FLAGS)                                         \
	PARAM(addr, KPT_SOCKADDR, KPS_CUSTOM, KFS_NONE)                                            \
	PARAM(size, KPT_UINT64, KPS_CUSTOM, KFS_NONE)                                              \
	PARAM(data, KPT_BYTEBUF, KPS_CUSTOM, KFS_NONE)                                             \
	PARAM(tuple, KPT_SOCKTUPLE, KPS_CUSTOM, KFS_NONE)

#define KESTREL_PARAMS_RECVMSG(PARAM) KESTREL_PARAMS_SENDMSG(PARAM)

#define KESTREL_PARAMS_SHUTDOWN(PARAM)                                                             \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(fd, KPT_FD, KPS_ARG0, KFS_NONE)                                                      \
	PARAM(how, KPT_FLAGS32, KPS_ARG1, KFS_SHUTDOWN_HOW)

/* Most iovecs whose sizes sendmsg/recvmsg add up (each is a probe read of
 * the msghdr walk, so fewer than readv/writev); more set TRUNCATED. */
#define KESTREL_MAX_MSG_IOVECS 64

#define KESTREL_NETWORK_EVENTS(EVENT)                                                              \
	EVENT(SOCKET, socket, KESTREL_PARAMS_SOCKET)                                               \
	EVENT(SOCKETPAIR, socketpair, KESTREL_PARAMS_SOCKETPAIR)                                   \
	EVENT(CONNECT, connect, KESTREL_PARAMS_CONNECT)                                            \
	EVENT(ACCEPT, accept, KESTREL_PARAMS_ACCEPT)                                               \
	EVENT(ACCEPT4, accept4, KESTREL_PARAMS_ACCEPT4)                                            \
	EVENT(BIND, bind, KESTREL_PARAMS_BIND)                                                     \
	EVENT(LISTEN, listen, KESTREL_PARAMS_LISTEN)                                               \
	EVENT(SENDTO, sendto, KESTREL_PARAMS_SENDTO)                                               \
	EVENT(RECVFROM, recvfrom, KESTREL_PARAMS_RECVFROM)                                         \
	EVENT(SENDMSG, sendmsg, KESTREL_PARAMS_SENDMSG)                                            \
	EVENT(RECVMSG, recvmsg, KESTREL_PARAMS_RECVMSG)                                            \
	EVENT(SHUTDOWN, shutdown, KESTREL_PARAMS_SHUTDOWN)

#endif /* KESTREL_SHARED_SCHEMA_NETWORK_EVENTS_H */
