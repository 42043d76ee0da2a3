/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Ring selection and submission, into MPSC rings (mpsc_ring_writer.h, the
 * default) or BPF ring buffers (PMAN_OPT_RINGBUF); the choice is a
 * load-time constant, so the verifier drops the other path.
 *
 * Records are committed without a wakeup: a wakeup per record costs
 * microseconds, ten times the rest of the capture. The consumer drains on
 * a short timer, and the probe wakes it only when the ring's backlog
 * crosses ring_wakeup_threshold_bytes (seen within a sixteenth of the
 * threshold), so a burst is picked up long before the ring fills. An MPSC
 * ring wakes its reader through a one-page BPF ring buffer, its doorbell,
 * that takes one record per wakeup.
 */
#ifndef KESTREL_BPF_RING_WRITER_H
#define KESTREL_BPF_RING_WRITER_H

#include "../base/counters.h"
#include "../base/maps.h"
#include "mpsc_ring_writer.h"
#include "../base/record_header.h"

/* The kernel's ringbuf header and record alignment. */
#define KESTREL_RINGBUF_HDR_BYTES  8
#define KESTREL_RINGBUF_ROUND(len) (((len) + KESTREL_RINGBUF_HDR_BYTES + 7) & ~7ULL)

/* This CPU's ring: a BPF ring buffer map, or an MPSC ring's head. In MPSC
 * mode ringbuf_maps holds the doorbells. */
static __always_inline void *ring_for_this_cpu(__u32 cpu)
{
	if (mpsc_rings)
		return mpsc_ring_of(cpu);
	return bpf_map_lookup_elem(&ringbuf_maps, &cpu);
}

/* A CPU looks at the ring's backlog once per this fraction of the wakeup
 * threshold it has written: the backlog is read from the consumer's
 * position, a cache line the consumer keeps writing from another CPU, and
 * that miss on every record cost about 10% of a captured syscall. */
#define KESTREL_WAKEUP_CHECK_SHIFT 4

struct kestrel_writer_state {
	__u64 unchecked_bytes; /* written by this CPU since its last look */
	__u64 last_backlog;    /* what that look saw */
	struct kestrel_mpsc_view mpsc;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct kestrel_writer_state);
} writer_state __weak SEC(".maps");

static __always_inline struct kestrel_writer_state *this_cpu_writer_state(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&writer_state, &zero);
}

/* True when this record should wake the consumer. */
static __always_inline bool wakeup_due(struct kestrel_writer_state *st, void *ring,
				       __u64 record_len)
{
	__u64 backlog, last;

	if (!ring_wakeup_threshold_bytes || !st)
		return false;
	/* The ring space the record took, as the backlog counts it. */
	st->unchecked_bytes +=
	    mpsc_rings ? KESTREL_MPSC_ROUND(record_len) : KESTREL_RINGBUF_ROUND(record_len);
	if (st->unchecked_bytes < ring_wakeup_threshold_bytes >> KESTREL_WAKEUP_CHECK_SHIFT)
		return false;
	st->unchecked_bytes = 0;
	backlog = mpsc_rings ? mpsc_backlog(ring) : bpf_ringbuf_query(ring, BPF_RB_AVAIL_DATA);
	last = st->last_backlog;
	st->last_backlog = backlog;
	/* Wake on the look that first finds the backlog across the threshold,
	 * not on every look after it: an overloaded consumer must not also pay
	 * wakeups. */
	return backlog >= ring_wakeup_threshold_bytes && last < ring_wakeup_threshold_bytes;
}

static __always_inline void ring_mpsc_doorbell(void)
{
	__u32 cpu = bpf_get_smp_processor_id();
	__u64 one = 1;
	void *doorbell = bpf_map_lookup_elem(&ringbuf_maps, &cpu);

	/* A full doorbell already has a wakeup pending. */
	if (doorbell)
		bpf_ringbuf_output(doorbell, &one, sizeof(one), BPF_RB_FORCE_WAKEUP);
}

/* The sink interface (helpers/sink/sink.h). */
static __always_inline bool sink_wants_current(void)
{
	return true;
}

/* The submit flags of a BPF ring buffer record. */
static __always_inline __u64 ringbuf_flags(struct kestrel_writer_state *st, void *ring, __u64 len)
{
	return wakeup_due(st, ring, len) ? BPF_RB_FORCE_WAKEUP : BPF_RB_NO_WAKEUP;
}

/* After an MPSC record: ring the doorbell when the record is due a wakeup. */
static __always_inline void mpsc_wake_if_due(struct kestrel_writer_state *st, void *ring, __u64 len)
{
	if (wakeup_due(st, ring, len))
		ring_mpsc_doorbell();
}

/* In a BPF ring buffer the timestamp is read right after the reservation:
 * read before, it would also span the wait for the ring's lock. */
static __always_inline void *sink_reserve(void *ring, __u64 size)
{
	struct kestrel_writer_state *st;
	void *rec;

	if (!mpsc_rings) {
		rec = bpf_ringbuf_reserve(ring, size, 0);
		if (rec)
			stamp_record_time(rec);
		return rec;
	}
	st = this_cpu_writer_state();
	return st ? mpsc_reserve(ring, size, &st->mpsc) : NULL;
}

static __always_inline void sink_submit(void *ring, void *record, __u64 size)
{
	struct kestrel_writer_state *st = this_cpu_writer_state();

	if (!mpsc_rings) {
		bpf_ringbuf_submit(record, ringbuf_flags(st, ring, size));
		return;
	}
	mpsc_submit(record, size);
	mpsc_wake_if_due(st, ring, size);
}

static __always_inline bool sink_output(void *ring, void *src, __u32 len)
{
	struct kestrel_writer_state *st = this_cpu_writer_state();

	if (!mpsc_rings) {
		stamp_record_time(src);
		return bpf_ringbuf_output(ring, src, len, ringbuf_flags(st, ring, len)) == 0;
	}
	if (!st || !mpsc_output(ring, src, len, &st->mpsc))
		return false;
	mpsc_wake_if_due(st, ring, len);
	return true;
}

#endif /* KESTREL_BPF_RING_WRITER_H */
