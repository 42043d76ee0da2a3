/* SPDX-License-Identifier: Apache-2.0 */
/* Which processes the capture settings let through, for every program that
 * emits records (sys_exit and the scheduler hooks alike). */
#ifndef KESTREL_BPF_CAPTURE_FILTER_H
#define KESTREL_BPF_CAPTURE_FILTER_H

#include "vmlinux.h"

#include "../shared/capture_settings.h"
#include "counters.h"
#include "settings_reader.h"

static __always_inline bool wanted(const struct kestrel_capture_settings *s, __u32 tgid, long ret)
{
	if (tgid == s->own_tgid)
		return false;
	if (s->target_tgid && tgid != s->target_tgid)
		return false;
	if (s->drop_failed && ret < 0)
		return false;
	return true;
}

/* This CPU's counters with `settings` read, or NULL when the record must
 * not be written (a settings read that kept racing is counted). */
static __always_inline struct kestrel_cpu_counters *
capture_begin(struct kestrel_capture_settings *settings)
{
	struct kestrel_cpu_counters *counters = this_cpu_counters();

	if (!counters)
		return NULL;
	if (!read_capture_settings(settings)) {
		counter_inc(counters->drops_settings_busy);
		return NULL;
	}
	return counters;
}

#endif /* KESTREL_BPF_CAPTURE_FILTER_H */
