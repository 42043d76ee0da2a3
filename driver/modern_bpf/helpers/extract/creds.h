/* SPDX-License-Identifier: Apache-2.0 */
/* Credentials of a task: ids and capability sets, read through CO-RE. */
#ifndef KESTREL_BPF_CREDS_H
#define KESTREL_BPF_CREDS_H

#include "vmlinux.h"

#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>

#define KESTREL_CAP_DAC_OVERRIDE 1

/* A capability set as a 64-bit mask. kernel_cap_t was u32[2] before 6.3 and
 * is a u64 since: both are the same 8 little-endian bytes. */
#define cred_caps(cred, field)                                                                     \
	({                                                                                         \
		__u64 __caps = 0;                                                                  \
		bpf_core_read(&__caps, sizeof(__caps), &(cred)->field);                            \
		__caps;                                                                            \
	})

/* The audit login uid, or -1 (unset) on kernels built without audit. */
static __always_inline __u32 task_loginuid(struct task_struct *task)
{
	if (!bpf_core_field_exists(task->loginuid))
		return (__u32)-1;
	return BPF_CORE_READ(task, loginuid.val);
}

#endif /* KESTREL_BPF_CREDS_H */
