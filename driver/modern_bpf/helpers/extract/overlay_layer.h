/* SPDX-License-Identifier: Apache-2.0 */
/* Which overlayfs layer a file is on (container images are overlays: a file
 * on the upper layer was written in the container, not shipped with it). */
#ifndef KESTREL_BPF_OVERLAY_LAYER_H
#define KESTREL_BPF_OVERLAY_LAYER_H

#include "vmlinux.h"

#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>

#include "../../shared/event_schema.h"
#include "exe_facts.h"

/* include/uapi/linux/magic.h */
#define KESTREL_OVERLAYFS_SUPER_MAGIC 0x794c7630

/* Falco's creat_flags bits (PPM_FD_UPPER_LAYER_CREAT, _LOWER_). */
#define KESTREL_CREAT_UPPER_LAYER (1U << 0)
#define KESTREL_CREAT_LOWER_LAYER (1U << 1)

/* KESTREL_CREAT_UPPER_LAYER or _LOWER_LAYER for a file on an overlay, 0
 * otherwise. An overlay inode is the vfs_inode member of struct ovl_inode;
 * it is on the upper layer once it has an upper dentry with an inode. */
static __always_inline __u32 overlay_creat_layer(struct file *f)
{
	/* Read as plain addresses (not typed pointers): the step back from the
	 * inode to its ovl_inode is arithmetic the verifier refuses on a typed
	 * kernel pointer. */
	unsigned long inode = (unsigned long)BPF_CORE_READ(f, f_inode);
	struct ovl_inode *ovl;
	struct dentry *upper;

	if (!inode ||
	    BPF_CORE_READ((struct inode *)inode, i_sb, s_magic) != KESTREL_OVERLAYFS_SUPER_MAGIC)
		return 0;
	ovl = (struct ovl_inode *)(inode - bpf_core_field_offset(struct ovl_inode, vfs_inode));
	upper = BPF_CORE_READ(ovl, __upperdentry);
	if (upper && BPF_CORE_READ(upper, d_inode, i_ino) != 0)
		return KESTREL_CREAT_UPPER_LAYER;
	return KESTREL_CREAT_LOWER_LAYER;
}

/* The kernel's FMODE_CREATED (include/linux/fs.h): set in f_mode by an open
 * that created the file. Not in BTF: a #define. */
#define KESTREL_FMODE_CREATED (1U << 20)

/* An open's open_facts (shared/schema/file_events.h) for the file it
 * returned (a view, see task_files.h): created by the call, on an overlay's
 * upper or lower layer. Plain loads: a file off any overlay costs three. */
static __always_inline __u32 open_facts(struct file *f)
{
	enum file_layer layer = file_overlay_layer(f);
	__u32 facts = 0;

	if (f->f_mode & KESTREL_FMODE_CREATED)
		facts |= KESTREL_OPEN_F_CREATED;
	if (layer == FILE_LAYER_UPPER)
		facts |= KESTREL_OPEN_F_UPPER_LAYER;
	else if (layer == FILE_LAYER_LOWER)
		facts |= KESTREL_OPEN_F_LOWER_LAYER;
	return facts;
}

#endif /* KESTREL_BPF_OVERLAY_LAYER_H */
