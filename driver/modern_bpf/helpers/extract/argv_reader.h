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

#include "../base/global_func.h"
#include "../build/record_builder.h"

/* argv is worth more than the I/O snaplen (80 bytes by default) to a rule,
 * so it has its own bound. */
#define ARGV_MAX_BYTES 4096
#define ARGV_MAX_ARGS  64

/* The strings the kernel laid out between `start` and `end` of the freshly
 * exec'd image's stack. The kernel wrote them and no instruction of the new
 * image has run, so nothing can have changed them. */
static __always_inline void rb_exec_strings(struct scratch_area *s, __u64 start, __u64 end)
{
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

/* exe (argv[0]) and args (argv[1..]) of the new image: two parameters. */
KESTREL_GLOBAL_FUNC int rb_exec_exe_args(struct scratch_area *s,
					 struct mm_struct *mm KESTREL_ARG_UNTRUSTED)
{
	__u64 start, end;
	__u32 off;
	long n = 0;

	if (!s)
		return 0;
	if (!mm) {
		rb_empty(s);
		rb_empty(s);
		return 0;
	}
	start = mm->arg_start;
	end = mm->arg_end;
	off = s->payload_off & RB_MASK;
	if (end > start)
		n = bpf_probe_read_user_str(&s->buf[off], KESTREL_MAX_PATH, (const void *)start);
	if (n > 0)
		rb_commit_param(s, (__u16)n);
	else
		rb_empty(s);
	rb_exec_strings(s, start + (n > 0 ? n : 0), end);
	return 0;
}

/* The new image's environment. */
KESTREL_GLOBAL_FUNC int rb_exec_env(struct scratch_area *s,
				    struct mm_struct *mm KESTREL_ARG_UNTRUSTED)
{
	if (!s)
		return 0;
	if (!mm) {
		rb_empty(s);
		return 0;
	}
	rb_exec_strings(s, mm->env_start, mm->env_end);
	return 0;
}

/* The file name exec was asked for: the kernel copies it onto the new
 * stack right above the environment (bprm->exec, AT_EXECFN). */
static __always_inline void rb_exec_filename(struct scratch_area *s, struct mm_struct *mm)
{
	rb_user_str(s, (const void *)mm->env_end, KESTREL_MAX_PATH);
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
KESTREL_GLOBAL_FUNC int rb_user_argv(struct scratch_area *s, __u64 argv)
{
	struct argv_walk w = {.argv = (const char *const *)argv};

	if (!s)
		return 0;
	if (!argv) {
		rb_empty(s);
		return 0;
	}
	w.s = s;
	bpf_loop(ARGV_MAX_ARGS, argv_walk_step, &w, 0);
	if (!w.done)
		s->flags |= KESTREL_RECORD_TRUNCATED;
	rb_commit_param(s, (__u16)w.len);
	return 0;
}

/* exe (argv[0]) and args (argv[1..]) from the caller's argv, as
 * rb_user_argv reads it: two parameters. */
KESTREL_GLOBAL_FUNC int rb_user_exe_args(struct scratch_area *s, __u64 argv)
{
	const char *arg0 = NULL;

	if (!s)
		return 0;
	if (argv)
		bpf_probe_read_user(&arg0, sizeof(arg0), (const void *)argv);
	if (!arg0) {
		rb_empty(s);
		rb_empty(s);
		return 0;
	}
	rb_user_str(s, arg0, KESTREL_MAX_PATH);
	rb_user_argv(s, argv + sizeof(const char *));
	return 0;
}

#endif /* KESTREL_BPF_ARGV_READER_H */
