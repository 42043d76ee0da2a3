/* SPDX-License-Identifier: Apache-2.0 */
/* Resource facts of a task that Falco's process events carry: its open
 * file limit, page faults, memory sizes and its pid namespace's init. Read
 * through CO-RE only, so both the fillers and the fork hook can use them. */
#ifndef KESTREL_BPF_PROCESS_FACTS_H
#define KESTREL_BPF_PROCESS_FACTS_H

#include "vmlinux.h"

#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>

#include "../base/task_ids.h"

/* <asm-generic/resource.h> and enum mm_counter_type; kernel headers are not
 * included in BPF programs. */
#define KESTREL_RLIMIT_NOFILE 7
#define KESTREL_MM_FILEPAGES  0
#define KESTREL_MM_ANONPAGES  1
#define KESTREL_MM_SWAPENTS   2
#define KESTREL_MM_SHMEMPAGES 3
/* Pages to KiB on x86_64 (4 KiB pages). */
#define KESTREL_PAGES_TO_KIB(n) ((n) << 2)

/* Before 6.2 the counters were atomics in struct mm_rss_stat. */
struct mm_rss_stat___old {
	atomic_long_t count[4];
} __attribute__((preserve_access_index));

struct mm_struct___old {
	struct mm_rss_stat___old rss_stat;
} __attribute__((preserve_access_index));

static __always_inline __u64 task_fdlimit(struct task_struct *task)
{
	return BPF_CORE_READ(task, signal, rlim[KESTREL_RLIMIT_NOFILE].rlim_cur);
}

/* A memory counter in pages. Since 6.2 it is a percpu_counter whose shared
 * count lags the per-CPU deltas by a few pages (what Falco reads too). */
static __always_inline __s64 mm_counter(struct mm_struct *mm, int member)
{
	__s64 n = 0;

	if (!mm)
		return 0;
	if (bpf_core_field_exists(((struct mm_struct___old *)mm)->rss_stat.count)) {
		bpf_core_read(&n, sizeof(n),
			      &((struct mm_struct___old *)mm)->rss_stat.count[member & 3]);
	} else {
		bpf_core_read(&n, sizeof(n), &mm->rss_stat[member & 3].count);
	}
	return n < 0 ? 0 : n;
}

static __always_inline __u32 mm_vm_size_kib(struct mm_struct *mm)
{
	return mm ? KESTREL_PAGES_TO_KIB(BPF_CORE_READ(mm, total_vm)) : 0;
}

static __always_inline __u32 mm_vm_rss_kib(struct mm_struct *mm)
{
	return KESTREL_PAGES_TO_KIB(mm_counter(mm, KESTREL_MM_FILEPAGES) +
				    mm_counter(mm, KESTREL_MM_ANONPAGES) +
				    mm_counter(mm, KESTREL_MM_SHMEMPAGES));
}

static __always_inline __u32 mm_vm_swap_kib(struct mm_struct *mm)
{
	return KESTREL_PAGES_TO_KIB(mm_counter(mm, KESTREL_MM_SWAPENTS));
}

/* CLOCK_MONOTONIC start time of the init of the task's own pid namespace. */
static __always_inline __u64 task_pidns_init_start_ns(struct task_struct *task)
{
	struct pid_namespace *ns = pid_ns_of(BPF_CORE_READ(task, thread_pid));

	return ns ? BPF_CORE_READ(ns, child_reaper, start_time) : 0;
}

#endif /* KESTREL_BPF_PROCESS_FACTS_H */
