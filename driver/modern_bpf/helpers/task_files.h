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

/* Device and inode number of `f`, its inode read once for both. */
static __always_inline void file_dev_ino(struct file *f, __u32 *dev, __u64 *ino)
{
	struct inode *inode = BPF_CORE_READ(f, f_inode);

	*dev = BPF_CORE_READ(inode, i_sb, s_dev);
	*ino = BPF_CORE_READ(inode, i_ino);
}

#endif /* KESTREL_BPF_TASK_FILES_H */
