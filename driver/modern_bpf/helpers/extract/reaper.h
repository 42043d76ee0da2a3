/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Which thread inherits an exiting thread's children: what the kernel's
 * find_new_reaper will choose, computed while the exiting thread is still
 * linked (sched_process_exit runs before exit_notify reparents). Through
 * CO-RE reads only: process_exit.bpf.c is its own object.
 */
#ifndef KESTREL_BPF_REAPER_H
#define KESTREL_BPF_REAPER_H

#include "vmlinux.h"

#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>

#include "../base/task_ids.h"

#define KESTREL_PF_EXITING   0x00000004
#define REAPER_MAX_THREADS   32
#define REAPER_MAX_ANCESTORS 64
/* The walk ran out of steps: user space decides. */
#define REAPER_UNKNOWN (-1)

struct alive_thread_walk {
	struct list_head *head;
	struct list_head *next;
	__s32 tid; /* 0 = none alive */
	bool done;
};

static long alive_thread_step(__u32 i, void *data)
{
	struct alive_thread_walk *w = data;
	struct task_struct *t;

	if (w->next == w->head) {
		w->done = true;
		return 1;
	}
	t = container_of(w->next, struct task_struct, thread_node);
	if (!(BPF_CORE_READ(t, flags) & KESTREL_PF_EXITING)) {
		w->tid = BPF_CORE_READ(t, pid);
		w->done = true;
		return 1;
	}
	w->next = BPF_CORE_READ(t, thread_node.next);
	return 0;
}

/* A thread of `task`'s process that is not exiting, 0 when none is, or
 * REAPER_UNKNOWN when the group is too large to walk. */
static __always_inline __s32 alive_thread_of(struct task_struct *task)
{
	struct signal_struct *signal = BPF_CORE_READ(task, signal);
	struct alive_thread_walk w = {.head = &signal->thread_head};

	w.next = BPF_CORE_READ(signal, thread_head.next);
	bpf_loop(REAPER_MAX_THREADS, alive_thread_step, &w, 0);
	return w.done ? w.tid : REAPER_UNKNOWN;
}

struct subreaper_walk {
	struct task_struct *task;
	struct task_struct *ns_reaper;
	__u32 level;
	__s32 tid;
	bool done;
};

static long subreaper_step(__u32 i, void *data)
{
	struct subreaper_walk *w = data;
	/* Locals: CO-RE relocates every access inside BPF_CORE_READ, and the
	 * walk is not a kernel type. */
	struct task_struct *prev = w->task;
	struct task_struct *ns_reaper = w->ns_reaper;
	struct task_struct *t = BPF_CORE_READ(prev, real_parent);
	struct signal_struct *signal;
	__s32 tid;

	w->task = t;
	if (!t || task_ns_level(t) != w->level || t == w->ns_reaper) {
		w->tid = BPF_CORE_READ(ns_reaper, pid);
		w->done = true;
		return 1;
	}
	signal = BPF_CORE_READ(t, signal);
	if (!BPF_CORE_READ_BITFIELD_PROBED(signal, is_child_subreaper))
		return 0;
	tid = alive_thread_of(t);
	if (tid != 0) {
		w->tid = tid;
		w->done = true;
		return 1;
	}
	return 0;
}

/* The host tid that will inherit `task`'s children; 0 when it has none
 * or is the last thread of its namespace's init. */
static __always_inline __s32 reaper_tid_of(struct task_struct *task)
{
	struct list_head *children = &task->children;
	struct subreaper_walk w = {.task = task};
	struct task_struct *ns_reaper;
	struct pid_namespace *ns;
	struct signal_struct *signal;
	__s32 tid;

	if (BPF_CORE_READ(task, children.next) == children)
		return 0;
	tid = alive_thread_of(task);
	if (tid != 0)
		return tid;
	ns = pid_ns_of(BPF_CORE_READ(task, thread_pid));
	ns_reaper = BPF_CORE_READ(ns, child_reaper);
	if (ns_reaper == task)
		return 0;
	signal = BPF_CORE_READ(task, signal);
	if (!BPF_CORE_READ_BITFIELD_PROBED(signal, has_child_subreaper))
		return BPF_CORE_READ(ns_reaper, pid);
	w.ns_reaper = ns_reaper;
	w.level = task_ns_level(task);
	bpf_loop(REAPER_MAX_ANCESTORS, subreaper_step, &w, 0);
	return w.done ? w.tid : REAPER_UNKNOWN;
}

#endif /* KESTREL_BPF_REAPER_H */
