/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Socket addresses in the record encoding of shared/param_types.h
 * (KPT_SOCKADDR, KPT_SOCKTUPLE), read either from the kernel's socket behind
 * an fd (what the kernel really bound or connected, after the call) or from
 * a caller's sockaddr in user memory.
 *
 * Encodings are assembled in scratch->path, which is free while a network
 * filler runs (only path_reader.h uses it, and not from these fillers), and
 * then copied into the record as one parameter.
 */
#ifndef KESTREL_BPF_SOCKET_READER_H
#define KESTREL_BPF_SOCKET_READER_H

#include "vmlinux.h"

#include <bpf/bpf_core_read.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#include "../build/record_builder.h"
#include "task_files.h"

#define SOCK_S_IFMT    0170000
#define SOCK_S_IFSOCK  0140000
#define SOCK_SUN_PATH  108 /* sizeof(sockaddr_un.sun_path) */
#define SOCK_ADDR_MAX  128 /* sizeof(struct sockaddr_storage) */
#define SOCK_INET_LEN  6   /* address + port */
#define SOCK_INET6_LEN 18
/* Where a user sockaddr is staged before it is encoded at path[0]. */
#define SOCK_RAW_OFFSET KESTREL_MAX_PATH

/* The socket behind `fd` of the current task, or NULL when fd is not one. */
static __always_inline struct socket *socket_from_fd(long fd)
{
	struct file *f = file_from_fd(fd);

	if (!f || (f->f_inode->i_mode & SOCK_S_IFMT) != SOCK_S_IFSOCK)
		return NULL;
	return kernel_view(struct socket, f->private_data);
}

/* The kernel socket behind `fd`, or NULL when fd is not a socket. */
static __always_inline struct sock *sock_from_fd(long fd)
{
	struct socket *sock = socket_from_fd(fd);

	return sock ? sock->sk : NULL;
}

/* Copies a sun_path of `len` bytes to dst as a NUL-terminated string, with
 * '@' for the leading NUL of an abstract name. Returns the bytes written
 * (NUL included); dst needs SOCK_SUN_PATH + 2 bytes. */
static __always_inline __u32 put_sun_path(__u8 *dst, const char *src, long len, bool user)
{
	char first = 0;
	long n;

	dst[0] = '\0';
	if (len <= 0 || !src)
		return 1;
	if (len > SOCK_SUN_PATH)
		len = SOCK_SUN_PATH;
	if (user ? bpf_probe_read_user(&first, 1, src) : bpf_probe_read_kernel(&first, 1, src))
		return 1;
	if (first == '\0') {
		/* Abstract: the name is the len - 1 bytes after the NUL. */
		dst[0] = '@';
		if (len == 1) {
			dst[1] = '\0';
			return 2;
		}
		len &= 0x7f;
		n = user ? bpf_probe_read_user_str(&dst[1], len, src + 1)
			 : bpf_probe_read_kernel_str(&dst[1], len, src + 1);
		return n > 0 ? 1 + (__u32)n : 1;
	}
	/* A path of len bytes need not end in a NUL: copy len, add one. */
	len = (len + 1) & 0xff;
	n = user ? bpf_probe_read_user_str(dst, len, src)
		 : bpf_probe_read_kernel_str(dst, len, src);
	if (n <= 0) {
		dst[0] = '\0';
		return 1;
	}
	return (__u32)n;
}

/* The bound name of a unix socket ("" when it has none). */
static __always_inline __u32 put_unix_name(__u8 *dst, struct sock *sk)
{
	struct unix_address *a = NULL;

	if (sk)
		a = kernel_view(struct unix_sock, sk)->addr;
	if (!a) {
		dst[0] = '\0';
		return 1;
	}
	/* a->len counts sun_family too. */
	return put_sun_path(
	    dst, (const char *)a + bpf_core_field_offset(struct unix_address, name) + sizeof(__u16),
	    a->len - (long)sizeof(__u16), false);
}

/* One end of an inet socket: address then port, host order. */
static __always_inline __u32 put_inet_end(__u8 *dst, struct sock *sk, bool v6, bool local)
{
	__u16 port;

	if (v6) {
		if (local)
			bpf_core_read(dst, 16, &sk->__sk_common.skc_v6_rcv_saddr);
		else
			bpf_core_read(dst, 16, &sk->__sk_common.skc_v6_daddr);
	} else {
		if (local)
			bpf_core_read(dst, 4, &sk->__sk_common.skc_rcv_saddr);
		else
			bpf_core_read(dst, 4, &sk->__sk_common.skc_daddr);
	}
	port = local ? sk->__sk_common.skc_num : bpf_ntohs(sk->__sk_common.skc_dport);
	__builtin_memcpy(&dst[v6 ? 16 : 4], &port, sizeof(port));
	return v6 ? SOCK_INET6_LEN : SOCK_INET_LEN;
}

/* Which ends of a socket rb_socket_ends writes. */
enum socket_ends {
	SOCKET_LOCAL,  /* KPT_SOCKADDR of the local end */
	SOCKET_REMOTE, /* KPT_SOCKADDR of the remote end (a unix socket's peer) */
	SOCKET_TUPLE,  /* KPT_SOCKTUPLE: local end, then remote */
};

/* The socket of `fd` in the encoding `ends` asks for. Empty when fd is no
 * socket or of a family the encoding does not cover. */
static __always_inline void rb_socket_ends(struct scratch_area *s, long fd, enum socket_ends ends)
{
	struct sock *sk = sock_from_fd(fd);
	__u8 *t = s->path;
	__u32 len;
	__u16 family;

	if (!sk) {
		rb_empty(s);
		return;
	}
	family = sk->__sk_common.skc_family;
	t[0] = (__u8)family;
	if (family == KESTREL_AF_INET || family == KESTREL_AF_INET6) {
		bool v6 = family == KESTREL_AF_INET6;

		len = 1 + put_inet_end(&t[1], sk, v6, ends != SOCKET_REMOTE);
		if (ends == SOCKET_TUPLE)
			len += put_inet_end(&t[len & 0x1f], sk, v6, false);
	} else if (family == KESTREL_AF_UNIX) {
		struct sock *peer = kernel_view(struct unix_sock, sk)->peer;

		len = 1 + put_unix_name(&t[1], ends == SOCKET_REMOTE ? peer : sk);
		if (ends == SOCKET_TUPLE)
			len += put_unix_name(&t[len & 0xff], peer);
	} else {
		rb_empty(s);
		return;
	}
	rb_kernel_bytes(s, t, len & 0x1ff);
}

/* Two parameters: the transport protocol (sk_protocol, IPPROTO_*) and the
 * socket type (sk_type, SOCK_*) of socket `fd`, from the kernel's sock so
 * they hold for sockets made before the capture; both empty when fd is no
 * socket. */
static __always_inline void rb_socket_proto(struct scratch_area *s, long fd)
{
	struct sock *sk = sock_from_fd(fd);

	if (!sk) {
		rb_empty(s);
		rb_empty(s);
		return;
	}
	rb_u32(s, BPF_CORE_READ(sk, sk_protocol));
	rb_u32(s, BPF_CORE_READ(sk, sk_type));
}

/* Three parameters of accept: the listening socket `fd`'s queue occupancy in
 * percent, its length (sk_ack_backlog) and its maximum (sk_max_ack_backlog);
 * all 0 when `ok` is false or fd is no socket. */
static __always_inline void rb_listen_queue(struct scratch_area *s, long fd, bool ok)
{
	struct sock *sk = ok ? sock_from_fd(fd) : NULL;
	__u32 len = 0, max = 0, pct = 0;

	if (sk) {
		len = BPF_CORE_READ(sk, sk_ack_backlog);
		max = BPF_CORE_READ(sk, sk_max_ack_backlog);
		if (len && max)
			pct = (__u32)((__u64)len * 100 / max);
	}
	rb_u32(s, pct);
	rb_u32(s, len);
	rb_u32(s, max);
}

static __always_inline bool port_in_range(__u16 port, __u16 lo, __u16 hi)
{
	return port >= lo && port <= hi;
}

/* Whether the local or the remote port of inet socket `fd` is in [lo, hi]. */
static __always_inline bool socket_port_in_range(long fd, __u16 lo, __u16 hi)
{
	struct sock *sk = sock_from_fd(fd);
	__u16 family;

	if (!sk)
		return false;
	family = sk->__sk_common.skc_family;
	if (family != KESTREL_AF_INET && family != KESTREL_AF_INET6)
		return false;
	return port_in_range(sk->__sk_common.skc_num, lo, hi) ||
	       port_in_range(bpf_ntohs(sk->__sk_common.skc_dport), lo, hi);
}

static __always_inline void rb_socket_tuple(struct scratch_area *s, long fd)
{
	rb_socket_ends(s, fd, SOCKET_TUPLE);
}

static __always_inline void rb_socket_local(struct scratch_area *s, long fd)
{
	rb_socket_ends(s, fd, SOCKET_LOCAL);
}

static __always_inline void rb_socket_remote(struct scratch_area *s, long fd)
{
	rb_socket_ends(s, fd, SOCKET_REMOTE);
}

/* A caller's sockaddr of `addrlen` bytes as a KPT_SOCKADDR. Empty when there
 * is none, it is unreadable, or too short for its family (the kernel
 * refuses those too); other families keep only their family byte. Returns
 * the inet port written (host order), 0 for none: decisions about the peer
 * use the very bytes the record shows, not a second read of user memory. */
static __always_inline __u16 rb_user_sockaddr(struct scratch_area *s, const void *uaddr,
					      long addrlen)
{
	__u8 *raw = &s->path[SOCK_RAW_OFFSET];
	__u8 *t = s->path;
	__u16 family, port = 0;
	__u32 len;

	if (!uaddr || addrlen < (long)sizeof(family)) {
		rb_empty(s);
		return 0;
	}
	if (addrlen > SOCK_ADDR_MAX)
		addrlen = SOCK_ADDR_MAX;
	if (bpf_probe_read_user(raw, addrlen & 0xff, uaddr) != 0) {
		rb_empty(s);
		return 0;
	}
	family = *(__u16 *)raw;
	t[0] = (__u8)family;
	if (family == KESTREL_AF_INET && addrlen >= 16) {
		/* sockaddr_in: family, port (network order), address. */
		__builtin_memcpy(&t[1], &raw[4], 4);
		port = bpf_ntohs(*(__u16 *)&raw[2]);
		__builtin_memcpy(&t[5], &port, 2);
		len = 1 + SOCK_INET_LEN;
	} else if (family == KESTREL_AF_INET6 && addrlen >= 24) {
		/* sockaddr_in6: family, port, flowinfo, address. */
		__builtin_memcpy(&t[1], &raw[8], 16);
		port = bpf_ntohs(*(__u16 *)&raw[2]);
		__builtin_memcpy(&t[17], &port, 2);
		len = 1 + SOCK_INET6_LEN;
	} else if (family == KESTREL_AF_UNIX) {
		len = 1 + put_sun_path(&t[1], (const char *)&raw[2], addrlen - 2, false);
	} else if (family == KESTREL_AF_INET || family == KESTREL_AF_INET6) {
		rb_empty(s);
		return 0;
	} else {
		len = 1;
	}
	rb_kernel_bytes(s, t, len & 0xff);
	return port;
}

#endif /* KESTREL_BPF_SOCKET_READER_H */
