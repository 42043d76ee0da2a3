/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Data of read/write and socket syscalls, copied into a record only when the
 * capture settings ask for it. Only the bytes the syscall really transferred
 * (its return value) are taken, bounded by the snaplen (or by RB_MAX_BUFFER
 * on a full-capture port); more is flagged as truncated.
 */
#ifndef KESTREL_BPF_IO_DATA_H
#define KESTREL_BPF_IO_DATA_H

#include "vmlinux.h"

#include <bpf/bpf_helpers.h>

#include "../build/record_builder.h"
#include "../base/maps.h"

/* The `ret` bytes a read/write moved through `buf`. */
static __always_inline void rb_io_buffer(struct scratch_area *s, const void *buf, long ret)
{
	if (ret <= 0 || !s->capture_io_data) {
		rb_empty(s);
		return;
	}
	rb_user_bytes(s, buf, (__u64)ret);
}

/* What is left to copy across the iovecs. It lives in map memory, not in
 * the loop's stack context: the verifier tracks stack scalars exactly, so a
 * shrinking byte count there makes every bpf_loop iteration a new state and
 * the program never verifies; map values are opaque and it converges. */
struct iovec_copy_state {
	__u64 want;   /* bytes still to copy */
	__u32 copied; /* bytes copied so far */
	__u32 reserved;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct iovec_copy_state);
} iovec_copy_states __weak SEC(".maps");

struct iovec_walk {
	struct scratch_area *s;
	struct iovec_copy_state *copy;
	const struct iovec *iov;
	__u32 iovcnt;
	__u32 data_off; /* where the data parameter starts in s->buf */
	__u64 total;	/* sum of iov_len */
};

static long iovec_walk_step(__u32 i, void *data)
{
	struct iovec_walk *w = data;
	struct iovec_copy_state *c = w->copy;
	struct iovec v;
	__u32 n;

	if (i >= w->iovcnt)
		return 1;
	if (bpf_probe_read_user(&v, sizeof(v), &w->iov[i]) != 0)
		return 1;
	w->total += v.iov_len;
	if (c->want == 0)
		return 0;
	n = v.iov_len < c->want ? (__u32)v.iov_len : (__u32)c->want;
	if (n > RB_MAX_BUFFER)
		n = RB_MAX_BUFFER;
	if (n == 0)
		return 0;
	if (bpf_probe_read_user(&w->s->buf[(w->data_off + c->copied) & RB_MASK], n, v.iov_base) !=
	    0) {
		c->want = 0;
		return 0;
	}
	c->copied += n;
	c->want -= n;
	return 0;
}

/* Two parameters of readv/writev: the sum of the iovec lengths, then the
 * first min(ret, snaplen) bytes transferred, across iovecs in order. */
static __always_inline void rb_iovec_size_and_data(struct scratch_area *s, const struct iovec *iov,
						   long iovcnt, long ret)
{
	struct iovec_walk w = {.s = s, .iov = iov};
	__u32 size_off = s->payload_off & RB_MASK;
	__u32 zero = 0;
	__u32 copied;

	w.copy = bpf_map_lookup_elem(&iovec_copy_states, &zero);
	if (iovcnt <= 0 || !iov || !w.copy) {
		rb_empty(s);
		rb_empty(s);
		return;
	}
	w.iovcnt = iovcnt > KESTREL_MAX_IOVECS ? KESTREL_MAX_IOVECS : (__u32)iovcnt;
	w.copy->want = 0;
	w.copy->copied = 0;
	/* The size is patched in once the walk has summed it. */
	rb_u64(s, 0);
	w.data_off = s->payload_off;
	if (ret > 0 && s->capture_io_data) {
		__u64 want = (__u64)ret < s->snaplen ? (__u64)ret : s->snaplen;

		if (want > RB_MAX_BUFFER)
			want = RB_MAX_BUFFER;
		if (want < (__u64)ret)
			s->flags |= KESTREL_RECORD_TRUNCATED;
		w.copy->want = want;
	}
	bpf_loop(KESTREL_MAX_IOVECS, iovec_walk_step, &w, 0);
	*(__u64 *)&s->buf[size_off] = w.total;
	copied = w.copy->copied;
	if (copied > RB_MAX_BUFFER)
		copied = RB_MAX_BUFFER;
	rb_commit_param(s, (__u16)copied);
}

#endif /* KESTREL_BPF_IO_DATA_H */
