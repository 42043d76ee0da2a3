// SPDX-License-Identifier: GPL-2.0-only
/*
 * Custom parameters of kernel events, reached by tail call from the
 * dispatcher after the table-driven parameters are written.
 */
#include "vmlinux.h"

#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "../../helpers/build/filler_scratch.h"
#include "../../helpers/extract/path_reader.h"
#include "../../helpers/build/record_builder.h"
#include "../../helpers/extract/task_files.h"

SEC("tp_btf/sys_exit")
int BPF_PROG(fill_FINIT_MODULE, struct pt_regs *regs, long ret)
{
	struct scratch_area *s = scratch_for(KESTREL_EVT_FINIT_MODULE);
	struct file *f;

	if (!s)
		return 0;
	f = file_from_fd((int)regs->di);
	if (f)
		rb_path(s, &f->f_path);
	else
		rb_empty(s);
	rb_submit(s);
	return 0;
}

/* Reads a u32 or u64 field of a user struct; empty when unreadable. */
static __always_inline void rb_user_u32(struct scratch_area *s, const void *p)
{
	__u32 v;

	if (bpf_probe_read_user(&v, sizeof(v), p) == 0)
		rb_u32(s, v);
	else
		rb_empty(s);
}

static __always_inline void rb_user_u64(struct scratch_area *s, const void *p)
{
	__u64 v;

	if (bpf_probe_read_user(&v, sizeof(v), p) == 0)
		rb_u64(s, v);
	else
		rb_empty(s);
}

SEC("tp_btf/sys_exit")
int BPF_PROG(fill_PERF_EVENT_OPEN, struct pt_regs *regs, long ret)
{
	struct scratch_area *s = scratch_for(KESTREL_EVT_PERF_EVENT_OPEN);
	struct perf_event_attr *attr = (struct perf_event_attr *)regs->di;

	if (!s)
		return 0;
	if (!attr) {
		rb_empty(s);
		rb_empty(s);
	} else {
		rb_user_u32(s, &attr->type);
		rb_user_u64(s, &attr->config);
	}
	rb_submit(s);
	return 0;
}

SEC("tp_btf/sys_exit")
int BPF_PROG(fill_IO_URING_SETUP, struct pt_regs *regs, long ret)
{
	struct scratch_area *s = scratch_for(KESTREL_EVT_IO_URING_SETUP);
	struct io_uring_params *p = (struct io_uring_params *)regs->si;

	if (!s)
		return 0;
	if (!p) {
		rb_empty(s);
		rb_empty(s);
		rb_empty(s);
		rb_empty(s);
		rb_empty(s);
		rb_empty(s);
	} else {
		rb_user_u32(s, &p->flags);
		/* Written back by the kernel only on success. */
		if (ret >= 0) {
			rb_user_u32(s, &p->sq_entries);
			rb_user_u32(s, &p->cq_entries);
		} else {
			rb_u32(s, 0);
			rb_u32(s, 0);
		}
		rb_user_u32(s, &p->sq_thread_cpu);
		rb_user_u32(s, &p->sq_thread_idle);
		if (ret >= 0)
			rb_user_u32(s, &p->features);
		else
			rb_u32(s, 0);
	}
	rb_submit(s);
	return 0;
}

/* The module image: init_module(image, len, uargs). */
SEC("tp_btf/sys_exit")
int BPF_PROG(fill_INIT_MODULE, struct pt_regs *regs, long ret)
{
	struct scratch_area *s = scratch_for(KESTREL_EVT_INIT_MODULE);

	if (!s)
		return 0;
	rb_user_bytes(s, (const void *)regs->di, regs->si);
	rb_submit(s);
	return 0;
}
