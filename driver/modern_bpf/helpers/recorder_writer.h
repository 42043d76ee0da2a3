/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The flight-recorder sink: the same sink_* calls as ring_writer.h, writing
 * into an overwrite ring of slots instead of a BPF ring buffer (protocol in
 * shared/recorder_format.h). Selected by compiling the dispatcher with
 * KESTREL_SINK_RECORDER. Nothing here ever waits for a reader: a record
 * always goes in, unless its slot is owned by a writer stalled since the
 * previous lap, and then this record is dropped and counted rather than
 * waiting or writing over a slot someone else is filling.
 */
#ifndef KESTREL_BPF_RECORDER_WRITER_H
#define KESTREL_BPF_RECORDER_WRITER_H

#include "counters.h"
#include "maps.h"
#include "settings_reader.h"

#include "../shared/event_types.h"
#include "../shared/recorder_format.h"

/* The generic record takes the one-slot path. */
_Static_assert(sizeof(struct kestrel_generic_record) <= KESTREL_RECORDER_SLOT_PAYLOAD,
	       "the generic record must fit one recorder slot");
_Static_assert(sizeof(struct kestrel_recorder_slot) == KESTREL_RECORDER_SLOT_BYTES, "slot layout");
_Static_assert(sizeof(struct kestrel_recorder_head) == 64, "one cache line per head");

/* Load-time constants, fixed by user space before the verifier sees them. */
__weak const volatile __u32 recorder_slot_mask = 0; /* slots per ring - 1 */
__weak const volatile __u32 recorder_ring_mask = 0; /* 0 = one shared ring; else rings - 1 */
__weak const volatile __u64 recorder_cgroup_id = 0; /* 0 = every cgroup */

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

/* Claims the next slot of `ring` for a record of `size` bytes and returns
 * its payload, or NULL when the record cannot go in. */
static __always_inline void *sink_reserve(void *ring, __u64 size)
{
	struct kestrel_recorder_head *head = ring;
	struct kestrel_recorder_slot *slot;
	__u64 index, stamp, seen;
	__u32 slot_id;

	/* Multi-part writes are not needed by any record the probe has yet. */
	if (size > KESTREL_RECORDER_SLOT_PAYLOAD)
		return NULL;
	index = __sync_fetch_and_add(&head->next, 1);
	slot_id = head->base + ((__u32)index & recorder_slot_mask);
	slot = bpf_map_lookup_elem(&recorder_slots, &slot_id);
	if (!slot)
		return NULL;
	stamp = KESTREL_RECORDER_STAMP(index);
	seen = *(volatile __u64 *)&slot->seq;
	/* Odd: another writer is in the slot. >= stamp: a newer lap took it. */
	if ((seen & 1) || seen >= stamp)
		return NULL;
	if (__sync_val_compare_and_swap(&slot->seq, seen, stamp - 1) != seen)
		return NULL;
	slot->len = size;
	slot->part = 0;
	slot->nparts = 1;
	return slot->payload;
}

/* Publishes the slot claimed by sink_reserve. x86_64 keeps stores in
 * program order, so a compiler barrier is enough to make every payload
 * store visible before the sequence word says the slot is whole. */
static __always_inline void sink_submit(void *ring, void *record, __u64 size)
{
	struct kestrel_recorder_slot *slot =
	    (void *)((char *)record - KESTREL_RECORDER_SLOT_HDR_BYTES);
	__u64 owned = *(volatile __u64 *)&slot->seq;

	kestrel_compiler_barrier();
	*(volatile __u64 *)&slot->seq = owned + 1;
}

#endif /* KESTREL_BPF_RECORDER_WRITER_H */
