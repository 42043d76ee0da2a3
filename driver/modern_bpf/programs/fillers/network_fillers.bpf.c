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

#define NET_EINPROGRESS 115

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
int BPF_PROG(fill_SOCKETPAIR, struct pt_regs *regs, long ret)
{
	struct scratch_area *s = scratch_for(KESTREL_EVT_SOCKETPAIR);
	int fds[2];

	if (!s)
		return 0;
	if (ret == 0 && bpf_probe_read_user(fds, sizeof(fds), (const void *)regs->r10) == 0) {
		rb_u64(s, (__s64)fds[0]);
		rb_u64(s, (__s64)fds[1]);
	} else {
		rb_empty(s);
		rb_empty(s);
	}
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
	rb_submit(s);
	return 0;
}

static __always_inline int fill_accept(__u16 type, long ret)
{
	struct scratch_area *s = scratch_for(type);

	if (!s)
		return 0;
	if (ret >= 0)
		rb_socket_tuple(s, ret);
	else
		rb_empty(s);
	rb_submit(s);
	return 0;
}

SEC("tp_btf/sys_exit")
int BPF_PROG(fill_ACCEPT, struct pt_regs *regs, long ret)
{
	return fill_accept(KESTREL_EVT_ACCEPT, ret);
}

SEC("tp_btf/sys_exit")
int BPF_PROG(fill_ACCEPT4, struct pt_regs *regs, long ret)
{
	return fill_accept(KESTREL_EVT_ACCEPT4, ret);
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
	struct user_msghdr msg;
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
