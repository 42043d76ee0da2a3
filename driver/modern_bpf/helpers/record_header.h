/* SPDX-License-Identifier: Apache-2.0 */
/* Fills the header every record starts with (shared/record_format.h). */
#ifndef KESTREL_BPF_RECORD_HEADER_H
#define KESTREL_BPF_RECORD_HEADER_H

#include "vmlinux.h"

#include <bpf/bpf_helpers.h>

#include "../shared/record_format.h"

/* Everything but the timestamp: the sink stamps ts_ns as it puts the record
 * in its ring (helpers/sink.h), so that a shared ring's order and its
 * records' timestamps agree (README, "Ordering guarantee"). */
static __always_inline void fill_record_header(struct kestrel_record_header *h, __u16 type,
					       __u8 nparams, __u32 len, __u32 cpu, __u64 pid_tgid)
{
	h->tid = (__u32)pid_tgid;
	h->tgid = pid_tgid >> 32;
	h->len = len;
	h->type = type;
	h->version = KESTREL_SCHEMA_VERSION;
	h->nparams = nparams;
	h->flags = 0;
	h->cpu = cpu;
	h->reserved = 0;
}

/* What a sink does as the record at `rec` enters its ring. */
static __always_inline void stamp_record_time(void *rec)
{
	((struct kestrel_record_header *)rec)->ts_ns = bpf_ktime_get_boot_ns();
}

#endif /* KESTREL_BPF_RECORD_HEADER_H */
