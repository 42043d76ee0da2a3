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

#include "record_builder.h"

#define PATH_MAX_COMPONENTS 48
#define PATH_NAME_MAX	    255

struct path_walk {
	struct scratch_area *s;
	struct dentry *dentry;
	struct mount *mnt;
	struct dentry *mnt_root; /* of mnt: read once per mount, not per step */
	__u32 pos;		 /* start of the path written so far, in s->path */
	bool done;
};

/* What a step needs of a dentry: its parent and its name. */
struct dentry_up {
	struct dentry *parent;
	struct qstr name;
};

/* One probe read for both when the kernel keeps d_name right after
 * d_parent (decided at load time from BTF), two otherwise. */
static __always_inline void read_dentry_up(struct dentry *dentry, struct dentry_up *up)
{
	if (bpf_core_field_offset(struct dentry, d_name) ==
	    bpf_core_field_offset(struct dentry, d_parent) + sizeof(up->parent)) {
		bpf_probe_read_kernel(up, sizeof(*up),
				      (void *)dentry +
					  bpf_core_field_offset(struct dentry, d_parent));
		return;
	}
	up->parent = BPF_CORE_READ(dentry, d_parent);
	up->name = BPF_CORE_READ(dentry, d_name);
}

static long path_walk_step(__u32 i, void *data)
{
	struct path_walk *w = data;
	/* Locals, not w->...: CO-RE relocations must start at a kernel type. */
	struct dentry *dentry = w->dentry;
	struct mount *mnt = w->mnt;
	struct dentry *mnt_root = w->mnt_root;
	struct dentry_up up;
	__u32 len;

	read_dentry_up(dentry, &up);

	if (dentry == mnt_root || dentry == up.parent) {
		struct mount *mnt_parent = BPF_CORE_READ(mnt, mnt_parent);

		/* The root of a filesystem that is not a mount point (pipes,
		 * sockets), or the global root: stop. */
		if (dentry != mnt_root || mnt == mnt_parent) {
			w->done = true;
			return 1;
		}
		w->dentry = BPF_CORE_READ(mnt, mnt_mountpoint);
		w->mnt = mnt_parent;
		w->mnt_root = BPF_CORE_READ(mnt_parent, mnt.mnt_root);
		return 0;
	}
	len = up.name.len & PATH_NAME_MAX;
	if (len + 1 > w->pos) {
		w->s->flags |= KESTREL_RECORD_TRUNCATED;
		return 1;
	}
	w->pos -= len + 1;
	bpf_probe_read_kernel(&w->s->path[(w->pos + 1) & (KESTREL_MAX_PATH - 1)], len,
			      up.name.name);
	w->s->path[w->pos & (KESTREL_MAX_PATH - 1)] = '/';
	w->dentry = up.parent;
	return 0;
}

/* Appends the absolute path of `p` as one parameter. */
static __always_inline void rb_path(struct scratch_area *s, const struct path *p)
{
	struct path_walk w = {.s = s};
	struct vfsmount *vfsmnt;
	__u32 len;

	w.dentry = BPF_CORE_READ(p, dentry);
	vfsmnt = BPF_CORE_READ(p, mnt);
	w.mnt = container_of(vfsmnt, struct mount, mnt);
	w.mnt_root = BPF_CORE_READ(vfsmnt, mnt_root);
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
}

#endif /* KESTREL_BPF_PATH_READER_H */
