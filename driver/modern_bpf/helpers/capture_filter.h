/* SPDX-License-Identifier: Apache-2.0 */
/* Which processes the capture settings let through, for every program that
 * emits records (sys_exit and the scheduler hooks alike). */
#ifndef KESTREL_BPF_CAPTURE_FILTER_H
#define KESTREL_BPF_CAPTURE_FILTER_H

#include "vmlinux.h"

#include "../shared/capture_settings.h"

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

#endif /* KESTREL_BPF_CAPTURE_FILTER_H */
