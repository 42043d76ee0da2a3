/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Records that describe the capture rather than a syscall (settings changes,
 * dropping-mode markers). They are rare, so they are built on the stack and
 * copied into the ring; they carry tid = tgid = 0 because the syscall that
 * happened to notice the change is not what they are about.
 */
#ifndef KESTREL_BPF_CONTROL_RECORDS_H
#define KESTREL_BPF_CONTROL_RECORDS_H

#include "counters.h"
#include "ring_writer.h"
#include "../shared/event_types.h"

static __always_inline void control_header(struct kestrel_record_header *h, __u32 len, __u16 type,
					   __u8 nparams, __u32 cpu)
{
	h->ts_ns = bpf_ktime_get_boot_ns();
	h->tid = 0;
	h->tgid = 0;
	h->len = len;
	h->type = type;
	h->version = KESTREL_SCHEMA_VERSION;
	h->nparams = nparams;
	h->flags = 0;
	h->cpu = cpu;
	h->reserved = 0;
}

/* Accounted like every other record: written, or dropped by cause. */
static __always_inline void output_control_record(void *record, __u32 len, __u32 cpu,
						  struct kestrel_cpu_counters *counters)
{
	void *ring = ring_for_this_cpu(cpu);

	if (!ring) {
		counter_inc(counters->drops_no_ring);
		return;
	}
	if (bpf_ringbuf_output(ring, record, len, submit_flags(ring, len))) {
		counter_inc(counters->drops_ring_full);
		return;
	}
	counter_inc(counters->records_written);
}

#endif /* KESTREL_BPF_CONTROL_RECORDS_H */
