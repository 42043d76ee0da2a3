/* SPDX-License-Identifier: Apache-2.0 */
/* What detection rules ask about an executable's file: identity, times, and
 * where it came from (a memfd, an overlayfs upper layer, a file its user can
 * rewrite). Every pointer taken here is BTF-typed (from the current task or
 * a kernel_view), so fields are plain loads. */
#ifndef KESTREL_BPF_EXE_FACTS_H
#define KESTREL_BPF_EXE_FACTS_H

#include "vmlinux.h"

#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>

#include "creds.h"
#include "../base/kernel_view.h"

#define KESTREL_OVERLAYFS_SUPER_MAGIC 0x794c7630
#define KESTREL_S_IWUSR		      00200
#define KESTREL_S_IWGRP		      00020
#define KESTREL_S_IWOTH		      00002
#define KESTREL_NSEC_PER_SEC	      1000000000ULL
/* Since 6.13 the top bit of i_ctime_nsec marks a ctime someone queried
 * (multigrain timestamps); nanoseconds fit in 30 bits. */
#define KESTREL_NSEC_MASK 0x3fffffffU

static __always_inline __u64 inode_ctime_ns(struct inode *inode)
{
	return inode->i_ctime_sec * KESTREL_NSEC_PER_SEC +
	       (inode->i_ctime_nsec & KESTREL_NSEC_MASK);
}

static __always_inline __u64 inode_mtime_ns(struct inode *inode)
{
	return inode->i_mtime_sec * KESTREL_NSEC_PER_SEC +
	       (inode->i_mtime_nsec & KESTREL_NSEC_MASK);
}

/* Whether `cred` may write `inode` by its mode bits, its owner and group, or
 * CAP_DAC_OVERRIDE. Supplementary groups, ACLs and read-only mounts are not
 * considered: the answer can say "writable" for a file a supplementary group
 * owns only when the group bits also allow it through the primary gid. */
static __always_inline bool inode_writable_by(struct inode *inode, const struct cred *cred)
{
	__u32 mode = inode->i_mode;
	__u32 fsuid = cred->fsuid.val;
	__u32 fsgid = cred->fsgid.val;

	if (cred_caps(cred, cap_effective) & (1ULL << KESTREL_CAP_DAC_OVERRIDE))
		return true;
	if (inode->i_uid.val == fsuid)
		return mode & KESTREL_S_IWUSR;
	if (inode->i_gid.val == fsgid)
		return mode & KESTREL_S_IWGRP;
	return mode & KESTREL_S_IWOTH;
}

/* memfd_create files live on the internal shm mount, are named "memfd:..."
 * and have no link anywhere. */
static __always_inline bool file_is_memfd(struct file *f)
{
	char prefix[6] = {};
	const unsigned char *name = f->f_path.dentry->d_name.name;

	if (f->f_inode->i_nlink != 0)
		return false;
	bpf_probe_read_kernel(prefix, sizeof(prefix), name);
	return prefix[0] == 'm' && prefix[1] == 'e' && prefix[2] == 'm' && prefix[3] == 'f' &&
	       prefix[4] == 'd' && prefix[5] == ':';
}

/* Which overlayfs layer a file opened through overlayfs is on: the upper
 * one (created or copied up in the container's writable layer) when its
 * overlay inode has an upper dentry, else a lower one (shipped with the
 * image). */
enum file_layer { FILE_LAYER_NONE, FILE_LAYER_UPPER, FILE_LAYER_LOWER };

static __always_inline enum file_layer file_overlay_layer(struct file *f)
{
	struct dentry *dentry = f->f_path.dentry;
	struct ovl_inode *oi;

	if (dentry->d_sb->s_magic != KESTREL_OVERLAYFS_SUPER_MAGIC)
		return FILE_LAYER_NONE;
	if (!bpf_core_type_exists(struct ovl_inode))
		return FILE_LAYER_NONE;
	oi = kernel_view(struct ovl_inode,
			 container_of(dentry->d_inode, struct ovl_inode, vfs_inode));
	return oi->__upperdentry != NULL ? FILE_LAYER_UPPER : FILE_LAYER_LOWER;
}

#endif /* KESTREL_BPF_EXE_FACTS_H */
