/* SPDX-License-Identifier: Apache-2.0 */
/* The current task's memory use, as Falco reports it after mmap, munmap and
 * brk: virtual size, resident set and swap, in KiB. */
#ifndef KESTREL_BPF_MM_USAGE_H
#define KESTREL_BPF_MM_USAGE_H

#include "vmlinux.h"

#include <bpf/bpf_helpers.h>

#include "../build/record_builder.h"

/* Pages to KiB: x86_64 pages are 4 KiB. */
#define KESTREL_PAGE_TO_KB_SHIFT 2

/* An mm counter's shared total. It is the kernel's own approximation (the
 * per-CPU deltas below the batch size are not folded in), which is what
 * /proc/PID/status shows too. */
static __always_inline __u64 mm_counter_pages(struct mm_struct *mm, int counter)
{
	__s64 pages = mm->rss_stat[counter].count;

	return pages > 0 ? (__u64)pages : 0;
}

/* Appends vm_size, vm_rss and vm_swap (u32 KiB each); 0 for a task without
 * an mm (kernel threads). */
static __always_inline void rb_mm_usage(struct scratch_area *s)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct mm_struct *mm = task->mm;
	__u64 rss;

	if (!mm) {
		rb_u32(s, 0);
		rb_u32(s, 0);
		rb_u32(s, 0);
		return;
	}
	rss = mm_counter_pages(mm, MM_FILEPAGES) + mm_counter_pages(mm, MM_ANONPAGES) +
	      mm_counter_pages(mm, MM_SHMEMPAGES);
	rb_u32(s, (__u32)(mm->total_vm << KESTREL_PAGE_TO_KB_SHIFT));
	rb_u32(s, (__u32)(rss << KESTREL_PAGE_TO_KB_SHIFT));
	rb_u32(s, (__u32)(mm_counter_pages(mm, MM_SWAPENTS) << KESTREL_PAGE_TO_KB_SHIFT));
}

#endif /* KESTREL_BPF_MM_USAGE_H */
