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

/*
 * Parameter names are Falco's (its newest exit events); the rest are
 * Kestrel's extras. `l4proto` and `sock_type` are the socket's sk_protocol
 * (IPPROTO_*: 6 TCP, 17 UDP, 0 for unix) and sk_type (SOCK_*) read from the
 * kernel's struct sock at exit, so the transport is known for sockets made
 * before the capture started; both are empty when the fd is no socket.
 */

/* flags is the SOCK_NONBLOCK/SOCK_CLOEXEC bits of type, printed as Falco
 * prints them (O_NONBLOCK, O_CLOEXEC: the same bits on x86_64). */
#define KESTREL_PARAMS_SOCKET(PARAM)                                                               \
	PARAM(fd, KPT_FD, KPS_RET, KFS_NONE)                                                       \
	PARAM(domain, KPT_FLAGS32, KPS_ARG0, KFS_SOCKET_FAMILY)                                    \
	PARAM(type, KPT_FLAGS32, KPS_ARG1, KFS_SOCKET_TYPE)                                        \
	PARAM(proto, KPT_UINT32, KPS_ARG2, KFS_NONE)                                               \
	PARAM(flags, KPT_FLAGS32, KPS_CUSTOM, KFS_SOCKET_FLAGS)

/* The two fds are read from the caller's int[2] after the kernel wrote it.
 * source is the kernel address of fd1's struct sock, peer that of its peer
 * (fd2's sock for a unix pair): Falco's way of pairing the two ends; 0 on
 * failure. */
#define KESTREL_PARAMS_SOCKETPAIR(PARAM)                                                           \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(domain, KPT_FLAGS32, KPS_ARG0, KFS_SOCKET_FAMILY)                                    \
	PARAM(type, KPT_FLAGS32, KPS_ARG1, KFS_SOCKET_TYPE)                                        \
	PARAM(proto, KPT_UINT32, KPS_ARG2, KFS_NONE)                                               \
	PARAM(fd1, KPT_FD, KPS_CUSTOM, KFS_NONE)                                                   \
	PARAM(fd2, KPT_FD, KPS_CUSTOM, KFS_NONE)                                                   \
	PARAM(source, KPT_UINT64, KPS_CUSTOM, KFS_NONE)                                            \
	PARAM(peer, KPT_UINT64, KPS_CUSTOM, KFS_NONE)

#define KESTREL_PARAMS_CONNECT(PARAM)                                                              \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(fd, KPT_FD, KPS_ARG0, KFS_NONE)                                                      \
	PARAM(addr, KPT_SOCKADDR, KPS_CUSTOM, KFS_NONE)                                            \
	PARAM(tuple, KPT_SOCKTUPLE, KPS_CUSTOM, KFS_NONE)                                          \
	PARAM(l4proto, KPT_UINT32, KPS_CUSTOM, KFS_NONE)                                           \
	PARAM(sock_type, KPT_FLAGS32, KPS_CUSTOM, KFS_SOCKET_TYPE)

/* fd is the new connection (Falco's name), listen_fd the listening socket
 * it came from. The tuple, l4proto and sock_type are the new connection's;
 * queuelen/queuemax are the listener's sk_ack_backlog/sk_max_ack_backlog
 * after the accept, queuepct their ratio in percent (0 when either is 0);
 * all three 0 on failure. */
#define KESTREL_PARAMS_ACCEPT(PARAM)                                                               \
	PARAM(fd, KPT_FD, KPS_RET, KFS_NONE)                                                       \
	PARAM(listen_fd, KPT_FD, KPS_ARG0, KFS_NONE)                                               \
	PARAM(tuple, KPT_SOCKTUPLE, KPS_CUSTOM, KFS_NONE)                                          \
	PARAM(queuepct, KPT_UINT32, KPS_CUSTOM, KFS_NONE)                                          \
	PARAM(queuelen, KPT_UINT32, KPS_CUSTOM, KFS_NONE)                                          \
	PARAM(queuemax, KPT_UINT32, KPS_CUSTOM, KFS_NONE)                                          \
	PARAM(l4proto, KPT_UINT32, KPS_CUSTOM, KFS_NONE)                                           \
	PARAM(sock_type, KPT_FLAGS32, KPS_CUSTOM, KFS_SOCKET_TYPE)

#define KESTREL_PARAMS_ACCEPT4(PARAM)                                                              \
	PARAM(fd, KPT_FD, KPS_RET, KFS_NONE)                                                       \
	PARAM(listen_fd, KPT_FD, KPS_ARG0, KFS_NONE)                                               \
	PARAM(flags, KPT_FLAGS32, KPS_ARG3, KFS_ACCEPT_FLAGS)                                      \
	PARAM(tuple, KPT_SOCKTUPLE, KPS_CUSTOM, KFS_NONE)                                          \
	PARAM(queuepct, KPT_UINT32, KPS_CUSTOM, KFS_NONE)                                          \
	PARAM(queuelen, KPT_UINT32, KPS_CUSTOM, KFS_NONE)                                          \
	PARAM(queuemax, KPT_UINT32, KPS_CUSTOM, KFS_NONE)                                          \
	PARAM(l4proto, KPT_UINT32, KPS_CUSTOM, KFS_NONE)                                           \
	PARAM(sock_type, KPT_FLAGS32, KPS_CUSTOM, KFS_SOCKET_TYPE)

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
	PARAM(data, KPT_BYTEBUF, KPS_CUSTOM, KFS_NONE)                                             \
	PARAM(l4proto, KPT_UINT32, KPS_CUSTOM, KFS_NONE)                                           \
	PARAM(sock_type, KPT_FLAGS32, KPS_CUSTOM, KFS_SOCKET_TYPE)

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
	PARAM(tuple, KPT_SOCKTUPLE, KPS_CUSTOM, KFS_NONE)                                          \
	PARAM(l4proto, KPT_UINT32, KPS_CUSTOM, KFS_NONE)                                           \
	PARAM(sock_type, KPT_FLAGS32, KPS_CUSTOM, KFS_SOCKET_TYPE)

/* msgcontrol is the ancillary data the kernel wrote back (msg_controllen
 * bytes at exit, bounded by the snaplen; SCM_RIGHTS fds, credentials),
 * recorded whether or not capture_io_data is set; empty when none. */
#define KESTREL_PARAMS_RECVMSG(PARAM)                                                              \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(fd, KPT_FD, KPS_ARG0, KFS_NONE)                                                      \
	PARAM(flags, KPT_FLAGS32, KPS_ARG2, KFS_MSG_FLAGS)                                         \
	PARAM(addr, KPT_SOCKADDR, KPS_CUSTOM, KFS_NONE)                                            \
	PARAM(size, KPT_UINT64, KPS_CUSTOM, KFS_NONE)                                              \
	PARAM(data, KPT_BYTEBUF, KPS_CUSTOM, KFS_NONE)                                             \
	PARAM(tuple, KPT_SOCKTUPLE, KPS_CUSTOM, KFS_NONE)                                          \
	PARAM(l4proto, KPT_UINT32, KPS_CUSTOM, KFS_NONE)                                           \
	PARAM(sock_type, KPT_FLAGS32, KPS_CUSTOM, KFS_SOCKET_TYPE)                                 \
	PARAM(msgcontrol, KPT_BYTEBUF, KPS_CUSTOM, KFS_NONE)

#define KESTREL_PARAMS_SHUTDOWN(PARAM)                                                             \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(fd, KPT_FD, KPS_ARG0, KFS_NONE)                                                      \
	PARAM(how, KPT_FLAGS32, KPS_ARG1, KFS_SHUTDOWN_HOW)

/*
 * getsockopt/setsockopt: level and optname stay raw (SOL_SOCKET = 1, SO_*),
 * printed by name. Falco's `val` is a value of a type chosen by the option;
 * here it is the decoded number for SOL_SOCKET options Falco decodes:
 * SO_ERROR as -errno, SO_RCVTIMEO/SO_SNDTIMEO as nanoseconds, SO_COOKIE as
 * 64 bits, any other SOL_SOCKET option of optlen 4 as its int; empty for
 * the rest, whose bytes are in the extra `optval` (the first optlen bytes,
 * bounded by the snaplen). getsockopt's optlen and values are what the
 * kernel wrote back; on failure they are empty (optlen: the caller's).
 */
#define KESTREL_PARAMS_SETSOCKOPT(PARAM)                                                           \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(fd, KPT_FD, KPS_ARG0, KFS_NONE)                                                      \
	PARAM(level, KPT_FLAGS32, KPS_ARG1, KFS_SOCKOPT_LEVEL)                                     \
	PARAM(optname, KPT_FLAGS32, KPS_ARG2, KFS_SOCKOPT_NAME)                                    \
	PARAM(optlen, KPT_UINT32, KPS_ARG4, KFS_NONE)                                              \
	PARAM(val, KPT_INT64, KPS_CUSTOM, KFS_NONE)                                                \
	PARAM(optval, KPT_BYTEBUF, KPS_CUSTOM, KFS_NONE)

#define KESTREL_PARAMS_GETSOCKOPT(PARAM)                                                           \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(fd, KPT_FD, KPS_ARG0, KFS_NONE)                                                      \
	PARAM(level, KPT_FLAGS32, KPS_ARG1, KFS_SOCKOPT_LEVEL)                                     \
	PARAM(optname, KPT_FLAGS32, KPS_ARG2, KFS_SOCKOPT_NAME)                                    \
	PARAM(optlen, KPT_UINT32, KPS_CUSTOM, KFS_NONE)                                            \
	PARAM(val, KPT_INT64, KPS_CUSTOM, KFS_NONE)                                                \
	PARAM(optval, KPT_BYTEBUF, KPS_CUSTOM, KFS_NONE)

/* Falco's getsockname/getpeername carry nothing; addr is the socket's own
 * (getsockname) or its peer's (getpeername) address read from the kernel's
 * socket at exit, empty on failure. */
#define KESTREL_PARAMS_GETSOCKNAME(PARAM)                                                          \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(fd, KPT_FD, KPS_ARG0, KFS_NONE)                                                      \
	PARAM(addr, KPT_SOCKADDR, KPS_CUSTOM, KFS_NONE)

#define KESTREL_PARAMS_GETPEERNAME(PARAM) KESTREL_PARAMS_GETSOCKNAME(PARAM)

/*
 * sendmmsg/recvmmsg: one record per call (Falco writes one event per
 * message), so res is the number of messages moved, vlen the number asked
 * for. size, data, tuple (and recvmmsg's msgcontrol) are the first
 * message's, as Falco records each: size its iovec sum, data its msg_len
 * bytes (capture_io_data), msg_len the bytes the kernel moved for it. All
 * message parameters are empty when no message was moved.
 */
#define KESTREL_PARAMS_SENDMMSG(PARAM)                                                             \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(fd, KPT_FD, KPS_ARG0, KFS_NONE)                                                      \
	PARAM(vlen, KPT_UINT32, KPS_ARG2, KFS_NONE)                                                \
	PARAM(flags, KPT_FLAGS32, KPS_ARG3, KFS_MSG_FLAGS)                                         \
	PARAM(size, KPT_UINT64, KPS_CUSTOM, KFS_NONE)                                              \
	PARAM(data, KPT_BYTEBUF, KPS_CUSTOM, KFS_NONE)                                             \
	PARAM(tuple, KPT_SOCKTUPLE, KPS_CUSTOM, KFS_NONE)                                          \
	PARAM(l4proto, KPT_UINT32, KPS_CUSTOM, KFS_NONE)                                           \
	PARAM(sock_type, KPT_FLAGS32, KPS_CUSTOM, KFS_SOCKET_TYPE)                                 \
	PARAM(msg_len, KPT_UINT32, KPS_CUSTOM, KFS_NONE)

#define KESTREL_PARAMS_RECVMMSG(PARAM)                                                             \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(fd, KPT_FD, KPS_ARG0, KFS_NONE)                                                      \
	PARAM(vlen, KPT_UINT32, KPS_ARG2, KFS_NONE)                                                \
	PARAM(flags, KPT_FLAGS32, KPS_ARG3, KFS_MSG_FLAGS)                                         \
	PARAM(size, KPT_UINT64, KPS_CUSTOM, KFS_NONE)                                              \
	PARAM(data, KPT_BYTEBUF, KPS_CUSTOM, KFS_NONE)                                             \
	PARAM(tuple, KPT_SOCKTUPLE, KPS_CUSTOM, KFS_NONE)                                          \
	PARAM(l4proto, KPT_UINT32, KPS_CUSTOM, KFS_NONE)                                           \
	PARAM(sock_type, KPT_FLAGS32, KPS_CUSTOM, KFS_SOCKET_TYPE)                                 \
	PARAM(msg_len, KPT_UINT32, KPS_CUSTOM, KFS_NONE)                                           \
	PARAM(msgcontrol, KPT_BYTEBUF, KPS_CUSTOM, KFS_NONE)

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
	EVENT(SHUTDOWN, shutdown, KESTREL_PARAMS_SHUTDOWN)                                         \
	EVENT(GETSOCKOPT, getsockopt, KESTREL_PARAMS_GETSOCKOPT)                                   \
	EVENT(SETSOCKOPT, setsockopt, KESTREL_PARAMS_SETSOCKOPT)                                   \
	EVENT(GETSOCKNAME, getsockname, KESTREL_PARAMS_GETSOCKNAME)                                \
	EVENT(GETPEERNAME, getpeername, KESTREL_PARAMS_GETPEERNAME)                                \
	EVENT(SENDMMSG, sendmmsg, KESTREL_PARAMS_SENDMMSG)                                         \
	EVENT(RECVMMSG, recvmmsg, KESTREL_PARAMS_RECVMMSG)

#endif /* KESTREL_SHARED_SCHEMA_NETWORK_EVENTS_H */
