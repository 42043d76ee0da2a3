// SPDX-License-Identifier: GPL-2.0-only
/*
 * Custom parameters of network events, reached by tail call from the
 * dispatcher after the table-driven parameters are written. Why a tuple
 * comes from the kernel and an addr from user memory: see
 * shared/schema/network_events.h.
 */
#include "vmlinux.h"

#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "../../helpers/build/filler_scratch.h"
#include "../../helpers/extract/io_data.h"
#include "../../helpers/build/record_builder.h"
#include "../../helpers/extract/socket_reader.h"

#define NET_EINPROGRESS	    115
#define NET_SOCK_NONBLOCK   04000
#define NET_SOCK_CLOEXEC    02000000
#define NET_SOL_SOCKET	    1
#define NET_SO_ERROR	    4
#define NET_SO_RCVTIMEO	    20
#define NET_SO_SNDTIMEO	    21
#define NET_SO_COOKIE	    57
#define NET_SO_RCVTIMEO_NEW 66
#define NET_SO_SNDTIMEO_NEW 67

/* Lifts the snaplen for the rest of the record when either end of socket
 * `fd`, or the peer port the caller named (`peer_port`, 0 for none: an
 * unconnected datagram socket's destination or source), is in the
 * full-capture range. */
static __always_inline void apply_fullcapture_range(struct scratch_area *s, long fd,
						    __u16 peer_port)
{
	__u16 lo = s->fullcapture_port_lo, hi = s->fullcapture_port_hi;

	if (!s->capture_io_data || !hi)
		return;
	if ((peer_port && port_in_range(peer_port, lo, hi)) || socket_port_in_range(fd, lo, hi))
		s->snaplen = RB_MAX_BUFFER;
}

SEC("tp_btf/sys_exit")
int BPF_PROG(fill_SOCKET, struct pt_regs *regs, long ret)
{
	struct scratch_area *s = scratch_for(KESTREL_EVT_SOCKET);

	if (!s)
		return 0;
	rb_u32(s, (__u32)regs->si & (NET_SOCK_NONBLOCK | NET_SOCK_CLOEXEC));
	rb_submit(s);
	return 0;
}

SEC("tp_btf/sys_exit")
int BPF_PROG(fill_SOCKETPAIR, struct pt_regs *regs, long ret)
{
	struct scratch_area *s = scratch_for(KESTREL_EVT_SOCKETPAIR);
	struct sock *source = NULL, *peer = NULL;
	int fds[2];

	if (!s)
		return 0;
	if (ret == 0 && bpf_probe_read_user(fds, sizeof(fds), (const void *)regs->r10) == 0) {
		rb_u64(s, (__s64)fds[0]);
		rb_u64(s, (__s64)fds[1]);
		source = sock_from_fd(fds[0]);
		/* Only a unix sock has a peer pointer; socketpair makes no other. */
		if (source && source->__sk_common.skc_family == KESTREL_AF_UNIX)
			peer = kernel_view(struct unix_sock, source)->peer;
	} else {
		rb_empty(s);
		rb_empty(s);
	}
	/* The addresses identify the pair's two ends (as Falco records them);
	 * copied as plain numbers, since the verifier forbids arithmetic on a
	 * kernel pointer, which writing its bytes is. */
	__u64 source_addr = 0, peer_addr = 0;
	bpf_probe_read_kernel(&source_addr, sizeof(source_addr), &source);
	bpf_probe_read_kernel(&peer_addr, sizeof(peer_addr), &peer);
	rb_u64(s, source_addr);
	rb_u64(s, peer_addr);
	rb_submit(s);
	return 0;
}

SEC("tp_btf/sys_exit")
int BPF_PROG(fill_CONNECT, struct pt_regs *regs, long ret)
{
	struct scratch_area *s = scratch_for(KESTREL_EVT_CONNECT);

	if (!s)
		return 0;
	rb_user_sockaddr(s, (const void *)regs->si, (int)regs->dx);
	if (ret == 0 || ret == -NET_EINPROGRESS)
		rb_socket_tuple(s, (int)regs->di);
	else
		rb_empty(s);
	rb_socket_proto(s, (int)regs->di);
	rb_submit(s);
	return 0;
}

static __always_inline int fill_accept(__u16 type, struct pt_regs *regs, long ret)
{
	struct scratch_area *s = scratch_for(type);

	if (!s)
		return 0;
	if (ret >= 0)
		rb_socket_tuple(s, ret);
	else
		rb_empty(s);
	rb_listen_queue(s, (int)regs->di, ret >= 0);
	rb_socket_proto(s, ret);
	rb_submit(s);
	return 0;
}

SEC("tp_btf/sys_exit")
int BPF_PROG(fill_ACCEPT, struct pt_regs *regs, long ret)
{
	return fill_accept(KESTREL_EVT_ACCEPT, regs, ret);
}

SEC("tp_btf/sys_exit")
int BPF_PROG(fill_ACCEPT4, struct pt_regs *regs, long ret)
{
	return fill_accept(KESTREL_EVT_ACCEPT4, regs, ret);
}

SEC("tp_btf/sys_exit")
int BPF_PROG(fill_BIND, struct pt_regs *regs, long ret)
{
	struct scratch_area *s = scratch_for(KESTREL_EVT_BIND);

	if (!s)
		return 0;
	if (ret == 0)
		rb_socket_local(s, (int)regs->di);
	else
		rb_user_sockaddr(s, (const void *)regs->si, (int)regs->dx);
	rb_submit(s);
	return 0;
}

/* addr, tuple and data of sendto/recvfrom, then the record goes out. addr
 * is the peer the caller named: `addrlen` bytes at the fifth argument. */
static __always_inline int fill_addr_tuple_data(struct scratch_area *s, struct pt_regs *regs,
						long ret, long addrlen)
{
	__u16 peer_port = rb_user_sockaddr(s, (const void *)regs->r8, addrlen);

	rb_socket_tuple(s, (int)regs->di);
	apply_fullcapture_range(s, (int)regs->di, peer_port);
	rb_io_buffer(s, (const void *)regs->si, ret);
	rb_socket_proto(s, (int)regs->di);
	rb_submit(s);
	return 0;
}

SEC("tp_btf/sys_exit")
int BPF_PROG(fill_SENDTO, struct pt_regs *regs, long ret)
{
	struct scratch_area *s = scratch_for(KESTREL_EVT_SENDTO);

	return s ? fill_addr_tuple_data(s, regs, ret, (int)regs->r9) : 0;
}

SEC("tp_btf/sys_exit")
int BPF_PROG(fill_RECVFROM, struct pt_regs *regs, long ret)
{
	struct scratch_area *s = scratch_for(KESTREL_EVT_RECVFROM);
	int addrlen = 0;

	if (!s)
		return 0;
	/* The kernel wrote the sender's length back through the pointer. */
	if (ret >= 0 && regs->r8 && regs->r9)
		bpf_probe_read_user(&addrlen, sizeof(addrlen), (const void *)regs->r9);
	return fill_addr_tuple_data(s, regs, ret, addrlen);
}

/* addr, size, data and tuple of sendmsg/recvmsg. addr is msg_name: on
 * recvmsg the kernel has written the sender and its length back by exit. */
static __always_inline int fill_msg(__u16 type, struct pt_regs *regs, long ret, bool recv)
{
	struct scratch_area *s = scratch_for(type);
	struct user_msghdr msg = {};
	__u16 peer_port = 0;
	__u64 n;

	if (!s)
		return 0;
	if (bpf_probe_read_user(&msg, sizeof(msg), (const void *)regs->si) != 0) {
		rb_empty(s);
		rb_empty(s);
		rb_empty(s);
	} else {
		if (recv && ret < 0)
			rb_empty(s);
		else
			peer_port = rb_user_sockaddr(s, msg.msg_name, msg.msg_namelen);
		apply_fullcapture_range(s, (int)regs->di, peer_port);
		n = msg.msg_iovlen;
		if (n > KESTREL_MAX_MSG_IOVECS) {
			n = KESTREL_MAX_MSG_IOVECS;
			s->flags |= KESTREL_RECORD_TRUNCATED;
		}
		rb_iovec_size_and_data(s, msg.msg_iov, n, ret);
	}
	rb_socket_tuple(s, (int)regs->di);
	rb_socket_proto(s, (int)regs->di);
	if (recv) {
		/* The kernel wrote the control length it used back by exit. */
		if (ret >= 0 && msg.msg_control && msg.msg_controllen)
			rb_user_bytes(s, msg.msg_control, msg.msg_controllen);
		else
			rb_empty(s);
	}
	rb_submit(s);
	return 0;
}

SEC("tp_btf/sys_exit")
int BPF_PROG(fill_SENDMSG, struct pt_regs *regs, long ret)
{
	return fill_msg(KESTREL_EVT_SENDMSG, regs, ret, false);
}

SEC("tp_btf/sys_exit")
int BPF_PROG(fill_RECVMSG, struct pt_regs *regs, long ret)
{
	return fill_msg(KESTREL_EVT_RECVMSG, regs, ret, true);
}

/* Falco's decoding of an option value: the number for the SOL_SOCKET
 * options it decodes, empty otherwise (see the schema). */
static __always_inline void rb_sockopt_val(struct scratch_area *s, int level, int optname,
					   const void *optval, __u32 optlen)
{
	struct {
		__s64 sec;
		__s64 usec;
	} tv = {};
	__s64 v64 = 0;
	__s32 v32 = 0;

	if (level != NET_SOL_SOCKET || !optval) {
		rb_empty(s);
		return;
	}
	switch (optname) {
	case NET_SO_ERROR:
		if (optlen < sizeof(v32) || bpf_probe_read_user(&v32, sizeof(v32), optval))
			break;
		rb_u64(s, (__u64) - (__s64)v32);
		return;
	case NET_SO_RCVTIMEO:
	case NET_SO_SNDTIMEO:
	case NET_SO_RCVTIMEO_NEW:
	case NET_SO_SNDTIMEO_NEW:
		if (optlen < sizeof(tv) || bpf_probe_read_user(&tv, sizeof(tv), optval))
			break;
		rb_u64(s, (__u64)(tv.sec * 1000000000LL + tv.usec * 1000LL));
		return;
	case NET_SO_COOKIE:
		if (optlen < sizeof(v64) || bpf_probe_read_user(&v64, sizeof(v64), optval))
			break;
		rb_u64(s, (__u64)v64);
		return;
	default:
		if (optlen != sizeof(v32) || bpf_probe_read_user(&v32, sizeof(v32), optval))
			break;
		rb_u64(s, (__u64)(__s64)v32);
		return;
	}
	rb_empty(s);
}

SEC("tp_btf/sys_exit")
int BPF_PROG(fill_SETSOCKOPT, struct pt_regs *regs, long ret)
{
	struct scratch_area *s = scratch_for(KESTREL_EVT_SETSOCKOPT);
	const void *optval = (const void *)regs->r10;
	__u32 optlen = (__u32)regs->r8;

	if (!s)
		return 0;
	rb_sockopt_val(s, (int)regs->si, (int)regs->dx, optval, optlen);
	if (optlen)
		rb_user_bytes(s, optval, optlen);
	else
		rb_empty(s);
	rb_submit(s);
	return 0;
}

SEC("tp_btf/sys_exit")
int BPF_PROG(fill_GETSOCKOPT, struct pt_regs *regs, long ret)
{
	struct scratch_area *s = scratch_for(KESTREL_EVT_GETSOCKOPT);
	const void *optval = (const void *)regs->r10;
	__u32 optlen = 0;

	if (!s)
		return 0;
	if (bpf_probe_read_user(&optlen, sizeof(optlen), (const void *)regs->r8) != 0) {
		rb_empty(s);
		optlen = 0;
	} else {
		rb_u32(s, optlen);
	}
	if (ret == 0) {
		rb_sockopt_val(s, (int)regs->si, (int)regs->dx, optval, optlen);
		if (optlen)
			rb_user_bytes(s, optval, optlen);
		else
			rb_empty(s);
	} else {
		rb_empty(s);
		rb_empty(s);
	}
	rb_submit(s);
	return 0;
}

SEC("tp_btf/sys_exit")
int BPF_PROG(fill_GETSOCKNAME, struct pt_regs *regs, long ret)
{
	struct scratch_area *s = scratch_for(KESTREL_EVT_GETSOCKNAME);

	if (!s)
		return 0;
	if (ret == 0)
		rb_socket_local(s, (int)regs->di);
	else
		rb_empty(s);
	rb_submit(s);
	return 0;
}

SEC("tp_btf/sys_exit")
int BPF_PROG(fill_GETPEERNAME, struct pt_regs *regs, long ret)
{
	struct scratch_area *s = scratch_for(KESTREL_EVT_GETPEERNAME);

	if (!s)
		return 0;
	if (ret == 0)
		rb_socket_remote(s, (int)regs->di);
	else
		rb_empty(s);
	rb_submit(s);
	return 0;
}

/* The first message's size, data, tuple, protocol, msg_len (and for recv
 * its control data) of sendmmsg/recvmmsg; see the schema. */
static __always_inline int fill_mmsg(__u16 type, struct pt_regs *regs, long ret, bool recv)
{
	struct scratch_area *s = scratch_for(type);
	struct mmsghdr first = {};
	__u64 n;

	if (!s)
		return 0;
	if (ret <= 0 || bpf_probe_read_user(&first, sizeof(first), (const void *)regs->si) != 0) {
		rb_empty(s);
		rb_empty(s);
		rb_empty(s);
		rb_socket_proto(s, (int)regs->di);
		rb_empty(s);
		if (recv)
			rb_empty(s);
		rb_submit(s);
		return 0;
	}
	apply_fullcapture_range(s, (int)regs->di, 0);
	n = first.msg_hdr.msg_iovlen;
	if (n > KESTREL_MAX_MSG_IOVECS) {
		n = KESTREL_MAX_MSG_IOVECS;
		s->flags |= KESTREL_RECORD_TRUNCATED;
	}
	rb_iovec_size_and_data(s, first.msg_hdr.msg_iov, n, first.msg_len);
	rb_socket_tuple(s, (int)regs->di);
	rb_socket_proto(s, (int)regs->di);
	rb_u32(s, first.msg_len);
	if (recv) {
		if (first.msg_hdr.msg_control && first.msg_hdr.msg_controllen)
			rb_user_bytes(s, first.msg_hdr.msg_control, first.msg_hdr.msg_controllen);
		else
			rb_empty(s);
	}
	rb_submit(s);
	return 0;
}

SEC("tp_btf/sys_exit")
int BPF_PROG(fill_SENDMMSG, struct pt_regs *regs, long ret)
{
	return fill_mmsg(KESTREL_EVT_SENDMMSG, regs, ret, false);
}

SEC("tp_btf/sys_exit")
int BPF_PROG(fill_RECVMMSG, struct pt_regs *regs, long ret)
{
	return fill_mmsg(KESTREL_EVT_RECVMMSG, regs, ret, true);
}
