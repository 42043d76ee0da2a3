/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The task's cgroups as Falco's `cgroups` parameter: "controller=path"
 * entries, NUL-separated, for cpuset, cpu, cpuacct, io and memory (those the
 * running kernel has). A controller on the unified (v2) hierarchy is given
 * the task's own v2 cgroup path, the one /proc/PID/cgroup shows and the
 * engine derives container ids from; one on a v1 hierarchy its v1 path.
 * Paths are rebuilt from the cgroups' kernfs nodes, through CO-RE reads
 * only, so both the fillers and the fork hook can use this.
 */
#ifndef KESTREL_BPF_CGROUP_PATHS_H
#define KESTREL_BPF_CGROUP_PATHS_H

#include "vmlinux.h"

#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>

#include "../base/global_func.h"
#include "../build/record_builder.h"

/* Deeper cgroups keep their innermost components (flagged truncated). */
#define CGROUP_PATH_MAX_DEPTH  16
#define CGROUP_NAME_MAX	       256
#define CGROUP_SUBSYS_NAME_MAX 32
#define CGROUPS_MAX_BYTES      4096

/* Before 6.15 a kernfs node's parent was `parent`. */
struct kernfs_node___old {
	struct kernfs_node *parent;
} __attribute__((preserve_access_index));

static __always_inline struct kernfs_node *kernfs_parent(struct kernfs_node *kn)
{
	if (bpf_core_field_exists(((struct kernfs_node___old *)kn)->parent))
		return BPF_CORE_READ((struct kernfs_node___old *)kn, parent);
	return BPF_CORE_READ(kn, __parent);
}

struct cgroups_writer {
	struct scratch_area *s;
	struct task_struct *task;
	__u32 base; /* the parameter's start in s->buf */
	__u32 len;  /* bytes written so far */
	/* One entry's path components, innermost first. */
	const char *names[CGROUP_PATH_MAX_DEPTH];
	__u32 depth;
	struct kernfs_node *kn; /* the next component to collect */
	int ids[8];
};

static __always_inline __u8 *cgroups_at(struct cgroups_writer *w)
{
	return &w->s->buf[(w->base + w->len) & RB_MASK];
}

/* Writes "/" + component i of the path, outermost first. */
static long cgroups_component_step(__u32 i, void *data)
{
	struct cgroups_writer *w = data;
	__u32 k = w->depth - 2 - i; /* skips the root, whose name is "" */
	long n;

	if (i + 2 > w->depth || k >= CGROUP_PATH_MAX_DEPTH)
		return 1;
	if (w->len + 1 + CGROUP_NAME_MAX > CGROUPS_MAX_BYTES) {
		w->s->flags |= KESTREL_RECORD_TRUNCATED;
		return 1;
	}
	*cgroups_at(w) = '/';
	w->len++;
	n = bpf_probe_read_kernel_str(cgroups_at(w), CGROUP_NAME_MAX, w->names[k]);
	if (n > 1)
		w->len += n - 1;
	return 0;
}

/* Collects the name of component i, innermost first. A loop of its own:
 * unrolled, each depth the walk stops at is a state the verifier follows
 * through the rest of the entry. */
static long cgroups_name_step(__u32 i, void *data)
{
	struct cgroups_writer *w = data;
	struct kernfs_node *kn = w->kn; /* a local: see cgroups_entry_step */

	if (!kn || i >= CGROUP_PATH_MAX_DEPTH)
		return 1;
	w->names[i] = BPF_CORE_READ(kn, name);
	w->depth = i + 1;
	w->kn = kernfs_parent(kn);
	return 0;
}

static long cgroups_entry_step(__u32 i, void *data)
{
	struct cgroups_writer *w = data;
	struct cgroup_subsys_state *css;
	struct task_struct *task;
	struct cgroup *cgrp, *dfl;
	int id;
	const char *ss_name;
	long n;

	if (i >= 5 || w->ids[i & 7] < 0)
		return 0;
	if (w->len + CGROUP_SUBSYS_NAME_MAX + 2 > CGROUPS_MAX_BYTES) {
		w->s->flags |= KESTREL_RECORD_TRUNCATED;
		return 1;
	}
	/* Locals: CO-RE relocates every access inside BPF_CORE_READ, and the
	 * writer is not a kernel type. */
	task = w->task;
	id = w->ids[i & 7] & 15;
	css = BPF_CORE_READ(task, cgroups, subsys[id]);
	if (!css)
		return 0;
	cgrp = BPF_CORE_READ(css, cgroup);
	dfl = BPF_CORE_READ(task, cgroups, dfl_cgrp);
	if (dfl && BPF_CORE_READ(cgrp, root) == BPF_CORE_READ(dfl, root))
		cgrp = dfl;
	ss_name = BPF_CORE_READ(css, ss, name);
	n = bpf_probe_read_kernel_str(cgroups_at(w), CGROUP_SUBSYS_NAME_MAX, ss_name);
	if (n <= 1)
		return 0;
	w->len += n - 1;
	*cgroups_at(w) = '=';
	w->len++;
	w->kn = BPF_CORE_READ(cgrp, kn);
	w->depth = 0;
	bpf_loop(CGROUP_PATH_MAX_DEPTH, cgroups_name_step, w, 0);
	if (w->kn)
		w->s->flags |= KESTREL_RECORD_TRUNCATED;
	if (w->depth <= 1) {
		*cgroups_at(w) = '/';
		w->len++;
	} else {
		bpf_loop(CGROUP_PATH_MAX_DEPTH, cgroups_component_step, w, 0);
	}
	*cgroups_at(w) = '\0';
	w->len++;
	return 0;
}

#define CGROUP_ID_OR_NONE(name)                                                                    \
	(bpf_core_enum_value_exists(enum cgroup_subsys_id, name)                                   \
	     ? (int)bpf_core_enum_value(enum cgroup_subsys_id, name)                               \
	     : -1)

/* Appends the cgroups parameter of `task`. Global: the walk of five
 * hierarchies is verified once per program. */
KESTREL_GLOBAL_FUNC int rb_cgroups(struct scratch_area *s,
				   struct task_struct *task KESTREL_ARG_UNTRUSTED)
{
	struct cgroups_writer w = {.task = task};

	if (!s)
		return 0;
	w.s = s;
	w.base = s->payload_off;
	w.ids[0] = CGROUP_ID_OR_NONE(cpuset_cgrp_id);
	w.ids[1] = CGROUP_ID_OR_NONE(cpu_cgrp_id);
	w.ids[2] = CGROUP_ID_OR_NONE(cpuacct_cgrp_id);
	w.ids[3] = CGROUP_ID_OR_NONE(io_cgrp_id);
	w.ids[4] = CGROUP_ID_OR_NONE(memory_cgrp_id);
	bpf_loop(5, cgroups_entry_step, &w, 0);
	rb_commit_param(s, (__u16)w.len);
	return 0;
}

#endif /* KESTREL_BPF_CGROUP_PATHS_H */
