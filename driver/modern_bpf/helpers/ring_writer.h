/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Ring selection and submission. Records are committed without a wakeup:
 * a wakeup per record costs microseconds, ten times the rest of the capture.
 * The consumer drains on a short timer, and the probe wakes it only when the
 * ring's backlog crosses ring_wakeup_threshold_bytes (seen within a
 * sixteenth of the threshold), so a burst is picked up long before the ring
 * fills.
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

/* A CPU looks at the ring's backlog once per this fraction of the wakeup
 * threshold it has written: the backlog is read from the consumer's
 * position, a cache line the consumer keeps writing from another CPU, and
 * that miss on every record cost about 10% of a captured syscall. */
#define KESTREL_WAKEUP_CHECK_SHIFT 4

struct kestrel_wakeup_state {
	__u64 unchecked_bytes; /* written by this CPU since its last look */
	__u64 last_backlog;    /* what that look saw */
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct kestrel_wakeup_state);
} wakeup_state __weak SEC(".maps");

static __always_inline __u64 submit_flags(void *ring, __u64 record_len)
{
	struct kestrel_wakeup_state *st;
	__u64 backlog, last;
	__u32 zero = 0;

	if (!ring_wakeup_threshold_bytes)
		return BPF_RB_NO_WAKEUP;
	st = bpf_map_lookup_elem(&wakeup_state, &zero);
	if (!st)
		return BPF_RB_NO_WAKEUP;
	st->unchecked_bytes += KESTREL_RINGBUF_ROUND(record_len);
	if (st->unchecked_bytes < ring_wakeup_threshold_bytes >> KESTREL_WAKEUP_CHECK_SHIFT)
		return BPF_RB_NO_WAKEUP;
	st->unchecked_bytes = 0;
	backlog = bpf_ringbuf_query(ring, BPF_RB_AVAIL_DATA);
	last = st->last_backlog;
	st->last_backlog = backlog;
	/* Wake on the look that first finds the backlog across the threshold,
	 * not on every look after it: an overloaded consumer must not also pay
	 * wakeups. */
	if (backlog >= ring_wakeup_threshold_bytes && last < ring_wakeup_threshold_bytes)
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
