/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The flight-recorder sink: the calls of helpers/sink/sink.h, writing into an
 * overwrite ring of slots instead of a BPF ring buffer (protocol in
 * shared/recorder_format.h). Selected by compiling with
 * KESTREL_SINK_RECORDER. Nothing here ever waits for a reader: a record
 * always goes in, unless its slot is owned by a writer stalled since the
 * previous lap, and then this record is dropped and counted rather than
 * waiting or writing over a slot someone else is filling.
 */
#ifndef KESTREL_BPF_RECORDER_WRITER_H
#define KESTREL_BPF_RECORDER_WRITER_H

#include "../base/counters.h"
#include "../base/maps.h"
#include "../base/record_header.h"
#include "../base/settings_reader.h"

#include "../../shared/event_types.h"
#include "../../shared/recorder_format.h"

/* The generic record takes the one-slot path. */
_Static_assert(sizeof(struct kestrel_generic_record) <= KESTREL_RECORDER_SLOT_PAYLOAD,
	       "the generic record must fit one recorder slot");
_Static_assert(sizeof(struct kestrel_recorder_slot) == KESTREL_RECORDER_SLOT_BYTES, "slot layout");
_Static_assert(sizeof(struct kestrel_recorder_head) == 64, "one cache line per head");

/* Load-time constants, fixed by user space before the verifier sees them. */
__weak const volatile __u32 recorder_slot_mask = 0; /* slots per ring - 1 */
__weak const volatile __u32 recorder_ring_mask = 0; /* 0 = one shared ring; else rings - 1 */
__weak const volatile __u64 recorder_cgroup_id = 0; /* 0 = every cgroup */
/* log2 of the slots a CPU takes at once from a ring it shares; 0: one at a
 * time (a ring per CPU, or a small ring). */
__weak const volatile __u32 recorder_batch_shift = 0;

/* A lane's compare-and-swap loses only to a program that interrupted this
 * one on the same CPU. */
#define KESTREL_RECORDER_LANE_TRIES 4

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 1); /* set to rings * slots per ring */
	__type(key, __u32);
	__type(value, struct kestrel_recorder_slot);
} recorder_slots __weak SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 1); /* set to the number of rings */
	__type(key, __u32);
	__type(value, struct kestrel_recorder_head);
} recorder_heads __weak SEC(".maps");

/* Per CPU: the index its next slot takes in the batch it holds, a multiple
 * of the batch size when it holds none. A CPU sharing a ring takes a batch
 * of indices with one add on the ring's head, then its slots one by one
 * from here: with an add on the head per record, the head's cache line
 * moved between the CPUs on every record, and two CPUs recorded 0.62x the
 * records per-CPU rings did. Indices of a batch that its CPU never uses
 * read as lost slots, at most a batch per CPU at a time. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} recorder_lanes __weak SEC(".maps");

/* Read by user space only; lives with the maps so a pinned recorder
 * describes itself. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct kestrel_recorder_info);
} recorder_info __weak SEC(".maps");

static __always_inline bool sink_wants_current(void)
{
	return !recorder_cgroup_id || bpf_get_current_cgroup_id() == recorder_cgroup_id;
}

/* The ring of this CPU: its head. A power-of-two ring count lets CPUs
 * beyond it wrap onto the rings that exist. */
static __always_inline void *ring_for_this_cpu(__u32 cpu)
{
	__u32 ring = cpu & recorder_ring_mask;

	return bpf_map_lookup_elem(&recorder_heads, &ring);
}

/* Takes slot `index` of the ring for part `part` of an `nparts`-slot
 * record of `len` bytes, or returns NULL and leaves the slot alone. */
static __always_inline struct kestrel_recorder_slot *
claim_slot(struct kestrel_recorder_head *head, __u64 index, __u32 len, __u16 part, __u16 nparts)
{
	struct kestrel_recorder_slot *slot;
	__u32 slot_id = head->base + ((__u32)index & recorder_slot_mask);
	__u64 stamp = KESTREL_RECORDER_STAMP(index);
	__u64 seen;

	slot = bpf_map_lookup_elem(&recorder_slots, &slot_id);
	if (!slot)
		return NULL;
	seen = *(volatile __u64 *)&slot->seq;
	/* Odd: another writer is in the slot. >= stamp: a newer lap took it. */
	if ((seen & 1) || seen >= stamp)
		return NULL;
	if (__sync_val_compare_and_swap(&slot->seq, seen, stamp - 1) != seen)
		return NULL;
	slot->len = len;
	slot->part = part;
	slot->nparts = nparts;
	return slot;
}

/* x86_64 keeps stores in program order, so a compiler barrier is enough to
 * make every payload store visible before the sequence word says the slot
 * is whole. */
static __always_inline void publish_slot(struct kestrel_recorder_slot *slot)
{
	__u64 owned = *(volatile __u64 *)&slot->seq;

	kestrel_compiler_barrier();
	*(volatile __u64 *)&slot->seq = owned + 1;
}

/* The first of `n` consecutive indices of the ring for this CPU's record:
 * from the head, or from the batch this CPU holds. */
static __always_inline bool take_indices(struct kestrel_recorder_head *head, __u32 n, __u64 *first)
{
	const __u64 batch = 1ULL << recorder_batch_shift;
	__u64 *lane, p = 0, take;
	__u32 zero = 0;
	int i;

	if (!recorder_batch_shift) {
		*first = __sync_fetch_and_add(&head->next, n);
		return true;
	}
	lane = bpf_map_lookup_elem(&recorder_lanes, &zero);
	if (!lane)
		return false;
	for (i = 0; i < KESTREL_RECORDER_LANE_TRIES; i++) {
		p = *(volatile __u64 *)lane;
		/* None held, too few left, or the ring went a whole lap past
		 * the batch while this CPU was quiet: a new batch. */
		if (!(p & (batch - 1)) || (p & (batch - 1)) + n > batch ||
		    *(volatile __u64 *)&head->next - p > recorder_slot_mask)
			break;
		if (__sync_val_compare_and_swap(lane, p, p + n) == p) {
			*first = p;
			return true;
		}
	}
	take = (n + batch - 1) & ~(batch - 1);
	*first = __sync_fetch_and_add(&head->next, take);
	/* Fails only if a program that interrupted this one took a batch of
	 * its own meanwhile: this one then serves this record alone. */
	if (n < take)
		__sync_val_compare_and_swap(lane, p, *first + n);
	return true;
}

/* Claims the next slot of `ring` for a record of `size` bytes (at most one
 * slot's payload) and returns where to write it, or NULL when the record
 * cannot go in. */
static __always_inline void *sink_reserve(void *ring, __u64 size)
{
	struct kestrel_recorder_head *head = ring;
	struct kestrel_recorder_slot *slot;
	__u64 index;

	if (size > KESTREL_RECORDER_SLOT_PAYLOAD || !take_indices(head, 1, &index))
		return NULL;
	slot = claim_slot(head, index, size, 0, 1);
	if (!slot)
		return NULL;
	stamp_record_time(slot->payload);
	return slot->payload;
}

/* Publishes the slot claimed by sink_reserve. */
static __always_inline void sink_submit(void *ring, void *record, __u64 size)
{
	publish_slot((void *)((char *)record - KESTREL_RECORDER_SLOT_HDR_BYTES));
}

/* Writes a record of `len` bytes already built at `src` (e.g. in a per-CPU
 * scratch map; it must have room for whole slots' worth, as the last part
 * is copied in full) over consecutive slots, for records longer than one
 * slot. The slots are taken together, so the parts are adjacent.
 * Returns false when the record was too large or a part could not be
 * claimed; the parts that were written are then dropped by readers. */
static __always_inline bool sink_output(void *ring, void *src, __u32 len)
{
	struct kestrel_recorder_head *head = ring;
	__u16 nparts;
	__u64 first;
	bool whole = true;

	if (len == 0 || len > KESTREL_RECORDER_MAX_RECORD_BYTES)
		return false;
	stamp_record_time(src);
	nparts = (len + KESTREL_RECORDER_SLOT_PAYLOAD - 1) / KESTREL_RECORDER_SLOT_PAYLOAD;
	if (!take_indices(head, nparts, &first))
		return false;
	for (__u16 part = 0; part < KESTREL_RECORDER_MAX_PARTS && part < nparts; part++) {
		struct kestrel_recorder_slot *slot =
		    claim_slot(head, first + part, len, part, nparts);

		if (!slot) {
			whole = false;
			continue;
		}
		bpf_probe_read_kernel(slot->payload, KESTREL_RECORDER_SLOT_PAYLOAD,
				      (const char *)src + part * KESTREL_RECORDER_SLOT_PAYLOAD);
		publish_slot(slot);
	}
	return whole;
}

#endif /* KESTREL_BPF_RECORDER_WRITER_H */
