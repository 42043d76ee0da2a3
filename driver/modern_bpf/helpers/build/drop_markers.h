/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Drop markers: the stream itself says when records were lost.
 *
 * Each CPU keeps a count of records lost since its last marker. Before the
 * next record it reserves, the probe writes a marker carrying that count, so
 * the marker lands in the same ring, ahead of the first record after the
 * loss, and a reader sees it before any event that follows the gap. The
 * count is taken with an atomic exchange, so every loss is reported in
 * exactly one marker even when programs interleave on one CPU. User space
 * could synthesize markers from counter deltas, but only at the time it
 * polls the counters: it could not place the marker between the last record
 * before the gap and the first one after it.
 */
#ifndef KESTREL_BPF_DROP_MARKERS_H
#define KESTREL_BPF_DROP_MARKERS_H

#include "../../shared/event_types.h"
#include "../base/counters.h"
#include "../base/record_header.h"
#include "../sink/sink.h"

struct kestrel_drop_state {
	__u64 pending; /* lost since the last marker of this CPU */
	__u64 first_loss_ns;
	__u64 last_loss_ns;
	__u64 lost_total;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct kestrel_drop_state);
} drop_state __weak SEC(".maps");

static __always_inline struct kestrel_drop_state *this_cpu_drop_state(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&drop_state, &zero);
}

/* Counts one lost record under its cause and owes a marker for it. */
static __always_inline void count_loss(__u64 *cause)
{
	struct kestrel_drop_state *st = this_cpu_drop_state();
	__u64 now = bpf_ktime_get_boot_ns();

	__sync_fetch_and_add(cause, 1);
	if (!st)
		return;
	if (__sync_fetch_and_add(&st->pending, 1) == 0)
		st->first_loss_ns = now;
	st->last_loss_ns = now;
	__sync_fetch_and_add(&st->lost_total, 1);
}

_Static_assert(KESTREL_DROP_MARKER_NPARAMS % 4 == 0, "param_len is set four at a time");

/* Writes the marker this CPU owes, if any, into `ring`. Returns false when a
 * marker is owed but the ring has no room for it: the caller must then drop
 * its record too (as ring full), or the record would reach the reader ahead
 * of the marker announcing the gap before it. */
static __always_inline bool emit_owed_drop_marker(void *ring, __u32 cpu,
						  struct kestrel_cpu_counters *counters)
{
	struct kestrel_drop_state *st = this_cpu_drop_state();
	struct kestrel_drop_marker_record *m;
	__u64 lost;

	if (!st || !*(volatile __u64 *)&st->pending)
		return true;
	/* Take the count first: a marker is then written at most once per
	 * loss even when programs interleave on this CPU, and a marker that
	 * finds no room hands its count back for the next record. */
	lost = __sync_lock_test_and_set(&st->pending, 0);
	if (!lost)
		return true;
	m = sink_reserve(ring, sizeof(*m));
	if (!m) {
		__sync_fetch_and_add(&st->pending, lost);
		return false;
	}
	fill_record_header(&m->hdr, KESTREL_EVT_DROP_MARKER, KESTREL_DROP_MARKER_NPARAMS,
			   sizeof(*m), cpu, 0);
	set_u64_param_lens(m->param_len, KESTREL_DROP_MARKER_NPARAMS);
	m->lost = lost;
	m->first_loss_ns = st->first_loss_ns;
	m->last_loss_ns = st->last_loss_ns;
	m->lost_total = st->lost_total;
	sink_submit(ring, m, sizeof(*m));
	counter_inc(counters->drop_markers);
	return true;
}

/* This CPU's ring with the marker the CPU owes already in it, ready for the
 * next record; NULL, with the loss counted, when no record can go in. */
static __always_inline void *ring_for_record(__u32 cpu, struct kestrel_cpu_counters *counters)
{
	void *ring = ring_for_this_cpu(cpu);

	if (!ring) {
		counter_inc(counters->drops_no_ring);
		return NULL;
	}
	if (!emit_owed_drop_marker(ring, cpu, counters)) {
		count_loss(&counters->drops_ring_full);
		return NULL;
	}
	return ring;
}

/* Copies a record built elsewhere into this CPU's ring and counts the
 * outcome: written, or dropped by cause. */
static __always_inline void output_record(void *rec, __u32 len, __u32 cpu,
					  struct kestrel_cpu_counters *counters)
{
	void *ring = ring_for_record(cpu, counters);

	if (!ring)
		return;
	count_written_ahead(counters);
	if (!sink_output(ring, rec, len)) {
		take_back_written(counters);
		count_loss(&counters->drops_ring_full);
	}
}

#endif /* KESTREL_BPF_DROP_MARKERS_H */
