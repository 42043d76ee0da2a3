/* SPDX-License-Identifier: Apache-2.0 */
/* Process, session and group ids of a task, globally or as seen from a pid
 * namespace level, read through CO-RE. */
#ifndef KESTREL_BPF_TASK_IDS_H
#define KESTREL_BPF_TASK_IDS_H

#include "vmlinux.h"

#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>

/* The number of `pid` at namespace `level` (0 = the initial namespace), or
 * 0 when the pid is not visible there. struct pid ends in a flexible array
 * of struct upid, so the element is addressed by relocated offset and size. */
static __always_inline __s32 pid_nr_at(struct pid *pid, __u32 level)
{
	__u32 pid_level;
	__s32 nr = 0;
	__u64 off;

	if (!pid)
		return 0;
	pid_level = BPF_CORE_READ(pid, level);
	if (level > pid_level || level > 32)
		return 0;
	off = bpf_core_field_offset(struct pid, numbers) +
	      (__u64)level * bpf_core_type_size(struct upid) +
	      bpf_core_field_offset(struct upid, nr);
	bpf_probe_read_kernel(&nr, sizeof(nr), (void *)pid + off);
	return nr;
}

/* The pid namespace level `task` lives in: its ids as the task sees them. */
static __always_inline __u32 task_ns_level(struct task_struct *task)
{
	return BPF_CORE_READ(task, thread_pid, level);
}

/* The task's process id (its thread group leader's id) at `level`. */
static __always_inline __s32 task_tgid_at(struct task_struct *task, __u32 level)
{
	return pid_nr_at(BPF_CORE_READ(task, group_leader, thread_pid), level);
}

static __always_inline __s32 task_sid(struct task_struct *task)
{
	return pid_nr_at(BPF_CORE_READ(task, signal, pids[PIDTYPE_SID]), 0);
}

static __always_inline __s32 task_pgid(struct task_struct *task)
{
	return pid_nr_at(BPF_CORE_READ(task, signal, pids[PIDTYPE_PGID]), 0);
}

/* The pid namespace `pid` was allocated in (the task's own, for its
 * thread_pid): numbers[level].ns, addressed like pid_nr_at. */
static __always_inline struct pid_namespace *pid_ns_of(struct pid *pid)
{
	struct pid_namespace *ns = NULL;
	__u32 level;
	__u64 off;

	if (!pid)
		return NULL;
	level = BPF_CORE_READ(pid, level);
	if (level > 32)
		return NULL;
	off = bpf_core_field_offset(struct pid, numbers) +
	      (__u64)level * bpf_core_type_size(struct upid) +
	      bpf_core_field_offset(struct upid, ns);
	bpf_probe_read_kernel(&ns, sizeof(ns), (void *)pid + off);
	return ns;
}

/* The task's process group id as its own pid namespace numbers it. */
static __always_inline __s32 task_vpgid(struct task_struct *task)
{
	return pid_nr_at(BPF_CORE_READ(task, signal, pids[PIDTYPE_PGID]), task_ns_level(task));
}

/* The controlling terminal as a kernel dev_t (major << 20 | minor), or 0. */
static __always_inline __u32 task_tty(struct task_struct *task)
{
	struct tty_struct *tty = BPF_CORE_READ(task, signal, tty);
	__u32 major, minor;

	if (!tty)
		return 0;
	major = BPF_CORE_READ(tty, driver, major);
	minor = BPF_CORE_READ(tty, driver, minor_start) + BPF_CORE_READ(tty, index);
	return major << 20 | minor;
}

#endif /* KESTREL_BPF_TASK_IDS_H */
