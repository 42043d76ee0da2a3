/* SPDX-License-Identifier: Apache-2.0 */
/* The current task's open files, read through CO-RE. */
#ifndef KESTREL_BPF_TASK_FILES_H
#define KESTREL_BPF_TASK_FILES_H

#include "vmlinux.h"

#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>

/* The file behind `fd` in the current task, or NULL. The task pointer is
 * BTF-typed, so the walk to its fd array is plain loads the JIT guards
 * against faults, not a helper call per field; only the array slot, a
 * pointer to a pointer, needs one. */
static __always_inline struct file *file_from_fd(long fd)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct fdtable *fdt = task->files->fdt;
	struct file **fds;
	struct file *f = NULL;

	if (fd < 0 || !fdt || fd >= fdt->max_fds)
		return NULL;
	fds = fdt->fd;
	bpf_probe_read_kernel(&f, sizeof(f), &fds[fd]);
	return f;
}

static __always_inline __u32 file_dev(struct file *f)
{
	return BPF_CORE_READ(f, f_inode, i_sb, s_dev);
}

static __always_inline __u64 file_ino(struct file *f)
{
	return BPF_CORE_READ(f, f_inode, i_ino);
}

#endif /* KESTREL_BPF_TASK_FILES_H */
