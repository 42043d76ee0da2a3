/* SPDX-License-Identifier: Apache-2.0 */
/* The custom parameters of the clone family, shared by the fork hook (the
 * caller's record) and the sys_exit fillers (the child's and failures). */
#ifndef KESTREL_BPF_CLONE_PARAMS_H
#define KESTREL_BPF_CLONE_PARAMS_H

#include "vmlinux.h"

#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>

#include "../build/record_builder.h"

/* clone3's flags, from the caller's struct clone_args (read at exit or at
 * fork time, after the kernel's copy: TOCTOU, see the schema). */
static __always_inline void rb_clone3_flags(struct scratch_area *s, struct pt_regs *regs)
{
	__u64 flags = 0;

	bpf_probe_read_user(&flags, sizeof(flags), (const void *)regs->di);
	rb_u32(s, (__u32)flags);
}

/* Appends the custom parameters of a clone-family event: child_pid is 0
 * when no child was made. */
static __always_inline void rb_clone_custom(struct scratch_area *s, struct pt_regs *regs,
					    __s32 child_pid)
{
	if (s->type == KESTREL_EVT_CLONE3)
		rb_clone3_flags(s, regs);
	rb_u64(s, (__s64)child_pid);
}

static __always_inline bool is_clone_event(__u16 type)
{
	return type == KESTREL_EVT_CLONE || type == KESTREL_EVT_CLONE3 ||
	       type == KESTREL_EVT_FORK || type == KESTREL_EVT_VFORK;
}

#endif /* KESTREL_BPF_CLONE_PARAMS_H */
