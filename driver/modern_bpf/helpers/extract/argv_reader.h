/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Argument vectors as one KPT_CHARBUF_ARRAY parameter: the strings, each
 * with its NUL, at most ARGV_MAX_BYTES in all; a cut vector sets
 * KESTREL_RECORD_TRUNCATED.
 */
#ifndef KESTREL_BPF_ARGV_READER_H
#define KESTREL_BPF_ARGV_READER_H

#include "vmlinux.h"

#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>

#include "../build/record_builder.h"

/* argv is worth more than the I/O snaplen (80 bytes by default) to a rule,
 * so it has its own bound. */
#define ARGV_MAX_BYTES 4096
#define ARGV_MAX_ARGS  64

/* The argv the kernel laid out for the current, freshly exec'd image
 * (mm->arg_start..arg_end). The kernel wrote it and no instruction of the
 * new image has run, so nothing can have changed it. */
static __always_inline void rb_exec_argv(struct scratch_area *s, struct mm_struct *mm)
{
	__u64 start = mm->arg_start;
	__u64 end = mm->arg_end;
	__u32 off = s->payload_off & RB_MASK;
	__u32 n;

	if (end <= start) {
		rb_empty(s);
		return;
	}
	n = end - start > ARGV_MAX_BYTES ? ARGV_MAX_BYTES : (__u32)(end - start);
	if (n < end - start)
		s->flags |= KESTREL_RECORD_TRUNCATED;
	if (n == 0 || bpf_probe_read_user(&s->buf[off], n & (ARGV_MAX_BYTES * 2 - 1),
					  (const void *)start) != 0) {
		rb_empty(s);
		return;
	}
	rb_commit_param(s, (__u16)n);
}

struct argv_walk {
	struct scratch_area *s;
	const char *const *argv;
	__u32 len; /* bytes written so far */
	bool done;
};

static long argv_walk_step(__u32 i, void *data)
{
	struct argv_walk *w = data;
	struct scratch_area *s = w->s;
	const char *arg = NULL;
	__u32 room = ARGV_MAX_BYTES - w->len;
	long n;

	if (bpf_probe_read_user(&arg, sizeof(arg), &w->argv[i]) != 0 || !arg) {
		w->done = true;
		return 1;
	}
	if (room == 0 || room > ARGV_MAX_BYTES) {
		s->flags |= KESTREL_RECORD_TRUNCATED;
		return 1;
	}
	n = bpf_probe_read_user_str(&s->buf[(s->payload_off + w->len) & RB_MASK], room, arg);
	if (n <= 0) {
		w->done = true;
		return 1;
	}
	w->len += n;
	if (n == room)
		s->flags |= KESTREL_RECORD_TRUNCATED;
	return 0;
}

/* An argv array in user memory, as the caller passed it. Read at exit: it
 * may differ from what the kernel copied (TOCTOU); used only when the exec
 * failed and the caller's image, hence its memory, is still there. */
static __always_inline void rb_user_argv(struct scratch_area *s, const char *const *argv)
{
	struct argv_walk w = {.s = s, .argv = argv};

	if (!argv) {
		rb_empty(s);
		return;
	}
	bpf_loop(ARGV_MAX_ARGS, argv_walk_step, &w, 0);
	if (!w.done)
		s->flags |= KESTREL_RECORD_TRUNCATED;
	rb_commit_param(s, (__u16)w.len);
}

#endif /* KESTREL_BPF_ARGV_READER_H */
