/* SPDX-License-Identifier: Apache-2.0 */
/* The custom parameters of the clone family, shared by the fork hook (the
 * caller's record) and the sys_exit fillers (the child's and failures).
 * The fork hook is its own object and cannot walk paths (see
 * base/kernel_view.h), so each writer appends cwd itself between
 * rb_clone_head and rb_clone_tail. */
#ifndef KESTREL_BPF_CLONE_PARAMS_H
#define KESTREL_BPF_CLONE_PARAMS_H

#include "vmlinux.h"

#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>

#include "../base/task_ids.h"
#include "../build/record_builder.h"
#include "argv_reader.h"
#include "cgroup_paths.h"
#include "process_facts.h"

#define TASK_COMM_BYTES 16

/* clone3's flags, from the caller's struct clone_args (read at exit or at
 * fork time, after the kernel's copy: TOCTOU, see the schema). */
static __always_inline __u32 clone3_flags(struct pt_regs *regs)
{
	__u64 flags = 0;

	bpf_probe_read_user(&flags, sizeof(flags), (const void *)regs->di);
	return (__u32)flags;
}

/* exe, args, tid, pid, ptid of `task`, the record's writer. */
static __always_inline void rb_clone_head(struct scratch_area *s, struct task_struct *task)
{
	struct mm_struct *mm = task->mm;

	if (mm) {
		rb_exec_exe_args(s, mm);
	} else {
		rb_empty(s);
		rb_empty(s);
	}
	rb_u64(s, (__s64)task->pid);
	rb_u64(s, (__s64)task->tgid);
	rb_u64(s, (__s64)task->real_parent->pid);
}

/* The parameters after cwd. `child` is the new task in the caller's
 * record, NULL in the child's own record and in a failure's. */
static __always_inline void rb_clone_tail(struct scratch_area *s, struct pt_regs *regs,
					  struct task_struct *task, struct task_struct *child,
					  bool is_child_return)
{
	const struct cred *cred = task->cred;
	__u32 level = task_ns_level(task);
	__u32 child_level;

	rb_u64(s, task_fdlimit(task));
	rb_u64(s, task->maj_flt);
	rb_u64(s, task->min_flt);
	rb_u32(s, mm_vm_size_kib(task->mm));
	rb_u32(s, mm_vm_rss_kib(task->mm));
	rb_u32(s, mm_vm_swap_kib(task->mm));
	rb_kernel_str(s, task->comm, TASK_COMM_BYTES);
	rb_cgroups(s, task);
	rb_u32(s, cred->euid.val);
	rb_u32(s, cred->egid.val);
	rb_u64(s, (__s64)pid_nr_at(task->thread_pid, level));
	rb_u64(s, (__s64)task_tgid_at(task, level));
	rb_u64(s, is_child_return ? task_pidns_init_start_ns(task) : 0);
	if (child) {
		child_level = task_ns_level(child);
		rb_u64(s, (__s64)pid_nr_at(BPF_CORE_READ(child, thread_pid), 0));
		rb_u64(s, (__s64)task_tgid_at(child, 0));
		rb_u64(s, (__s64)pid_nr_at(BPF_CORE_READ(child, thread_pid), child_level));
		rb_u64(s, (__s64)task_tgid_at(child, child_level));
	} else {
		for (int i = 0; i < 4; i++)
			rb_u64(s, 0);
	}
	if (s->type == KESTREL_EVT_CLONE3)
		rb_u32(s, clone3_flags(regs));
	else if (s->type == KESTREL_EVT_FORK || s->type == KESTREL_EVT_VFORK)
		rb_u32(s, 0);
}

static __always_inline bool is_clone_event(__u16 type)
{
	return type == KESTREL_EVT_CLONE || type == KESTREL_EVT_CLONE3 ||
	       type == KESTREL_EVT_FORK || type == KESTREL_EVT_VFORK;
}

#endif /* KESTREL_BPF_CLONE_PARAMS_H */
