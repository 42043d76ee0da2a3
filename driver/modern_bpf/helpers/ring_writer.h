/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Ring selection and submission. Records are committed without a wakeup:
 * a wakeup per record costs microseconds, ten times the rest of the capture.
 * The consumer drains on a short timer, and the probe wakes it only when a
 * record pushes the ring's backlog across ring_wakeup_threshold_bytes, so a
 * burst is picked up long before the ring fills.
 */
#ifndef KESTREL_BPF_RING_WRITER_H
#define KESTREL_BPF_RING_WRITER_H

#include "counters.h"
#include "maps.h"

/* The kernel's ringbuf header and record alignment. */
#define KESTREL_RINGBUF_HDR_BYTES  8
#define KESTREL_RINGBUF_ROUND(len) (((len) + KESTREL_RINGBUF_HDR_BYTES + 7) & ~7ULL)

static __always_inline void *ring_for_this_cpu(__u32 cpu)
{
	return bpf_map_lookup_elem(&ringbuf_maps, &cpu);
}

static __always_inline __u64 submit_flags(void *ring, __u64 record_len)
{
	__u64 backlog;

	if (!ring_wakeup_threshold_bytes)
		return BPF_RB_NO_WAKEUP;
	backlog = bpf_ringbuf_query(ring, BPF_RB_AVAIL_DATA);
	/* Wake only on the record that crosses the threshold, not on every
	 * record after it: an overloaded consumer must not also pay wakeups. */
	if (backlog >= ring_wakeup_threshold_bytes &&
	    backlog - KESTREL_RINGBUF_ROUND(record_len) < ring_wakeup_threshold_bytes)
		return BPF_RB_FORCE_WAKEUP;
	return BPF_RB_NO_WAKEUP;
}

/* The sink interface (helpers/sink.h). */
static __always_inline bool sink_wants_current(void)
{
	return true;
}

static __always_inline void *sink_reserve(void *ring, __u64 size)
{
	return bpf_ringbuf_reserve(ring, size, 0);
}

static __always_inline void sink_submit(void *ring, void *record, __u64 size)
{
	bpf_ringbuf_submit(record, submit_flags(ring, size));
}

static __always_inline bool sink_output(void *ring, const void *src, __u32 len)
{
	return bpf_ringbuf_output(ring, (void *)src, len, submit_flags(ring, len)) == 0;
}

#endif /* KESTREL_BPF_RING_WRITER_H */
