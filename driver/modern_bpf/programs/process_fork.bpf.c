// SPDX-License-Identifier: GPL-2.0-only
/*
 * The caller's record of a successful clone, fork or vfork, written from
 * sched_process_fork: the kernel fires it after the child is complete but
 * before wake_up_new_task, so the child cannot have run yet, and nothing
 * after it can make the call fail. The record therefore precedes every
 * record of the child both in timestamp and in ring order, which a record
 * written at the caller's sys_exit could not promise: the child may return
 * to user space on another CPU first.
 *
 * A tail call cannot cross from this hook into the sys_exit fillers (the
 * kernel refuses tail calls between different attach points), so the
 * record is built here with the same helpers.
 */
#include "vmlinux.h"

#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "../helpers/dispatch/capture_filter.h"
#include "../helpers/extract/clone_params.h"
#include "../helpers/base/counters.h"
#include "../helpers/base/settings_reader.h"
#include "../helpers/base/syscall_id.h"
#include "../helpers/build/table_filler.h"
#include "../helpers/base/task_ids.h"

#define KESTREL_PF_KTHREAD 0x00200000

SEC("tp_btf/sched_process_fork")
int BPF_PROG(kestrel_sched_process_fork, struct task_struct *parent, struct task_struct *child)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct kestrel_capture_settings settings;
	struct kestrel_cpu_counters *counters;
	struct scratch_area *s;
	struct pt_regs *regs;
	__u32 level;
	__s32 res;
	__u64 id;
	__u16 type;

	/* An ia32 clone's arguments follow the ia32 ABI: sys_exit reports it
	 * as a generic record instead. */
	if ((task->flags & KESTREL_PF_KTHREAD) || in_ia32_syscall())
		return 0;
	regs = (struct pt_regs *)bpf_task_pt_regs(task);
	id = regs->orig_ax;
	if (!syscall_is_interesting(id))
		return 0;
	type = syscall_event[id];
	if (!is_clone_event(type))
		return 0;
	counters = capture_begin(&settings);
	if (!counters)
		return 0;
	level = task_ns_level(task);
	res = pid_nr_at(BPF_CORE_READ(child, thread_pid), level);
	if (!wanted(&settings, bpf_get_current_pid_tgid() >> 32, res))
		return 0;
	s = scratch_area();
	if (!s) {
		counter_inc(counters->drops_no_ring);
		return 0;
	}
	/* One call per clone event with its type a constant, so each call
	 * keeps only its event's case of the table filler's switch: with
	 * `type` a variable the verifier walked every event's case. */
	switch (type) {
	case KESTREL_EVT_CLONE:
		fill_table_params(s, KESTREL_EVT_CLONE, regs, res, &settings);
		break;
	case KESTREL_EVT_CLONE3:
		fill_table_params(s, KESTREL_EVT_CLONE3, regs, res, &settings);
		break;
	case KESTREL_EVT_FORK:
		fill_table_params(s, KESTREL_EVT_FORK, regs, res, &settings);
		break;
	case KESTREL_EVT_VFORK:
		fill_table_params(s, KESTREL_EVT_VFORK, regs, res, &settings);
		break;
	default:
		return 0;
	}
	rb_clone_head(s, task);
	/* No path walk in this object: the caller's cwd is in its own
	 * thread-table entry (and in the child's record). */
	rb_empty(s);
	rb_clone_tail(s, regs, task, child, false);
	rb_submit(s);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
