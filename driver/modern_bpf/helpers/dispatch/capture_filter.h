/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Which syscalls the settings keep: never Kestrel's own, only the target set
 * when one is given, and no failed call under drop_failed. Every test is a
 * plain load from the settings copy; the cgroup helper is called only when
 * a cgroup target is set.
 */
#ifndef KESTREL_BPF_CAPTURE_FILTER_H
#define KESTREL_BPF_CAPTURE_FILTER_H

#include "vmlinux.h"

#include <bpf/bpf_helpers.h>

#include "../../shared/capture_settings.h"
#include "../base/counters.h"
#include "../build/drop_markers.h"
#include "../base/settings_reader.h"

static __always_inline bool in_target_set(const struct kestrel_capture_settings *s, __u32 tgid)
{
	__u64 cgroup = 0;

	if (!s->target_lists_set)
		return !s->target_tgid || tgid == s->target_tgid;
	if (s->target_tgid && tgid == s->target_tgid)
		return true;
	for (int i = 0; i < KESTREL_MAX_TARGET_TGIDS; i++) {
		__u32 t = s->target_tgids[i];

		if (t && t == tgid)
			return true;
	}
	for (int i = 0; i < KESTREL_MAX_TARGET_CGROUPS; i++) {
		__u64 c = s->target_cgroups[i];

		if (!c)
			continue;
		if (!cgroup)
			cgroup = bpf_get_current_cgroup_id();
		if (c == cgroup)
			return true;
	}
	return false;
}

static __always_inline bool wanted(const struct kestrel_capture_settings *s, __u32 tgid, long ret)
{
	if (tgid == s->own_tgid)
		return false;
	if (!in_target_set(s, tgid))
		return false;
	if (s->drop_failed && ret < 0)
		return false;
	return true;
}

/* This CPU's counters with `settings` read, or NULL when no record may be
 * written (a settings read that kept racing is counted as a loss). Shared by
 * every program that emits records: sys_exit and the scheduler hooks. */
static __always_inline struct kestrel_cpu_counters *
capture_begin(struct kestrel_capture_settings *settings)
{
	struct kestrel_cpu_counters *counters = this_cpu_counters();

	if (!counters)
		return NULL;
	if (!read_capture_settings(settings)) {
		count_loss(&counters->drops_settings_busy);
		return NULL;
	}
	return counters;
}

#endif /* KESTREL_BPF_CAPTURE_FILTER_H */
