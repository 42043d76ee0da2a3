/* SPDX-License-Identifier: Apache-2.0 */
/* The current task's open files. */
#ifndef KESTREL_BPF_TASK_FILES_H
#define KESTREL_BPF_TASK_FILES_H

#include "vmlinux.h"

#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>

#include "../base/kernel_view.h"

/* The file behind `fd` in the current task, or NULL. The walk to the fd
 * array is plain loads from the BTF-typed task; only the array slot, a
 * pointer to a pointer, needs a helper call. */
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
	return f ? kernel_view(struct file, f) : NULL;
}

/* Device and inode number of `f` (a view, see file_from_fd). */
static __always_inline void file_dev_ino(struct file *f, __u32 *dev, __u64 *ino)
{
	struct inode *inode = f->f_inode;

	*dev = inode->i_sb->s_dev;
	*ino = inode->i_ino;
}

#endif /* KESTREL_BPF_TASK_FILES_H */
