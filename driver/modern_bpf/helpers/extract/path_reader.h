/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Absolute path of a struct path, rebuilt by walking dentries up to the
 * root and crossing mount points; bpf_d_path is not allowed from tp_btf.
 * Components are written backwards into scratch->path and the result is
 * copied into the record as one parameter. Paths deeper than
 * PATH_MAX_COMPONENTS or longer than KESTREL_MAX_PATH are flagged truncated
 * and keep their last components.
 */
#ifndef KESTREL_BPF_PATH_READER_H
#define KESTREL_BPF_PATH_READER_H

#include "vmlinux.h"

#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>

#include "../base/global_func.h"
#include "../base/kernel_view.h"
#include "../build/record_builder.h"

#define PATH_MAX_COMPONENTS 48
#define PATH_NAME_MAX	    255

struct path_walk {
	struct scratch_area *s;
	/* Kernel addresses; each step views them as their types. */
	const void *dentry;
	const void *mnt;      /* struct mount */
	const void *mnt_root; /* of mnt: read once per mount, not per step */
	__u32 pos;	      /* start of the path written so far, in s->path */
	bool done;
};

/* Names up to this long are copied by path_copy_name's direct loads. */
#define PATH_WORDS_NAME_MAX 16

/* The low `len` bytes (at most 8) of `word`, over the rest of `old`. */
static __always_inline __u64 path_merge_word(__u64 word, __u64 old, __u32 len)
{
	__u64 keep;

	if (len >= 8)
		return word;
	keep = (1ULL << (len * 8)) - 1;
	return (word & keep) | (old & ~keep);
}

/* Copies the `len`-byte name of `dentry` to s->path at `at`. A short name
 * lives in the dentry itself (d_shortname, 6.14 on), readable as words
 * with direct loads: for the one or two components of most paths that
 * saves a bpf_probe_read_kernel call each, 12-15 ns. The words go in
 * over what the bytes after the name already hold, the components to its
 * right, so those are merged back rather than overwritten. */
static __always_inline void path_copy_name(struct scratch_area *s, __u32 at, struct dentry *dentry,
					   __u32 len)
{
	__u64 *dst = (__u64 *)&s->path[at & (KESTREL_MAX_PATH - 1)];

	if (bpf_core_field_exists(dentry->d_shortname) && len <= PATH_WORDS_NAME_MAX &&
	    (__u64)dentry->d_name.name ==
		(__u64)dentry + bpf_core_field_offset(struct dentry, d_shortname)) {
		dst[0] = path_merge_word(dentry->d_shortname.words[0], dst[0], len);
		if (len > 8)
			dst[1] = path_merge_word(dentry->d_shortname.words[1], dst[1], len - 8);
		return;
	}
	bpf_probe_read_kernel(dst, len, dentry->d_name.name);
}

static long path_walk_step(__u32 i, void *data)
{
	struct path_walk *w = data;
	struct dentry *dentry = kernel_view(struct dentry, w->dentry);
	struct dentry *parent = dentry->d_parent;
	__u32 len;

	if (w->dentry == w->mnt_root || dentry == parent) {
		struct mount *mnt = kernel_view(struct mount, w->mnt);
		struct mount *mnt_parent = mnt->mnt_parent;

		/* The root of a filesystem that is not a mount point (pipes,
		 * sockets), or the global root: stop. */
		if (w->dentry != w->mnt_root || mnt == mnt_parent) {
			w->done = true;
			return 1;
		}
		w->dentry = mnt->mnt_mountpoint;
		w->mnt = mnt_parent;
		w->mnt_root = mnt_parent->mnt.mnt_root;
		return 0;
	}
	len = dentry->d_name.len & PATH_NAME_MAX;
	if (len + 1 > w->pos) {
		w->s->flags |= KESTREL_RECORD_TRUNCATED;
		return 1;
	}
	w->pos -= len + 1;
	path_copy_name(w->s, w->pos + 1, dentry, len);
	w->s->path[w->pos & (KESTREL_MAX_PATH - 1)] = '/';
	w->dentry = parent;
	return 0;
}

/* Appends the absolute path of `p` as one parameter. Global: the walk is
 * the costliest code a filler has to verify, and exec walks two paths. */
KESTREL_GLOBAL_FUNC int rb_path(struct scratch_area *s, const struct path *p KESTREL_ARG_UNTRUSTED)
{
	struct path_walk w = {.s = s};
	struct vfsmount *vfsmnt;
	struct path *path;
	__u32 len;

	if (!s)
		return 0;
	if (!p) {
		rb_empty(s);
		return 0;
	}
	path = kernel_view(struct path, p);
	vfsmnt = path->mnt;
	w.dentry = path->dentry;
	w.mnt = container_of(vfsmnt, struct mount, mnt);
	w.mnt_root = vfsmnt->mnt_root;
	/* The path ends at KESTREL_MAX_PATH - 1 with its NUL. */
	w.pos = KESTREL_MAX_PATH - 1;
	s->path[KESTREL_MAX_PATH - 1] = '\0';
	if (bpf_loop(PATH_MAX_COMPONENTS, path_walk_step, &w, 0) == PATH_MAX_COMPONENTS && !w.done)
		s->flags |= KESTREL_RECORD_TRUNCATED;
	if (w.pos == KESTREL_MAX_PATH - 1) {
		/* The root itself. */
		w.pos--;
		s->path[w.pos] = '/';
	}
	len = KESTREL_MAX_PATH - w.pos;
	rb_kernel_bytes(s, &s->path[w.pos & (KESTREL_MAX_PATH - 1)], len);
	return 0;
}

#endif /* KESTREL_BPF_PATH_READER_H */
