/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Records that describe the capture rather than a syscall (settings changes,
 * dropping-mode markers). They are rare, so they are built on the stack and
 * copied into the ring; they carry tid = tgid = 0 because the syscall that
 * happened to notice the change is not what they are about.
 */
#ifndef KESTREL_BPF_CONTROL_RECORDS_H
#define KESTREL_BPF_CONTROL_RECORDS_H

#include "../base/counters.h"
#include "drop_markers.h"
#include "../base/record_header.h"
#include "../sink/sink.h"
#include "../../shared/event_types.h"

/* Control records belong to no thread: tid = tgid = 0. */
static __always_inline void control_header(struct kestrel_record_header *h, __u32 len, __u16 type,
					   __u8 nparams, __u32 cpu)
{
	fill_record_header(h, type, nparams, len, cpu, 0);
}

#endif /* KESTREL_BPF_CONTROL_RECORDS_H */
