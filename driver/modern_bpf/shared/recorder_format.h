/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Layout of a flight recorder: an overwrite ring the probe keeps writing
 * whether or not anyone reads it, shared by the probe (writer) and any later
 * process that opens its pinned maps (reader).
 *
 * The ring is an array of fixed 128-byte slots (BPF_F_MMAPABLE array map,
 * one slot per element) split into one or more rings of a power-of-two
 * number of slots. Each ring has a 64-bit head: the count of slots ever
 * reserved in it. A record takes the slot(s) at head, head + 1, ... modulo
 * the ring size, so the newest slots always overwrite the oldest.
 *
 * Why fixed slots and not a byte ring: each slot carries its own sequence
 * word, and a writer claims a slot with a compare-and-swap on it before
 * writing. Two writers therefore never write one slot at the same time, even
 * when one of them stalled for a whole lap of the ring (preemption, a VM
 * losing its CPU), and a reader detects any write that overlapped its copy
 * by re-reading one word. In a byte ring, records of different laps start at
 * different offsets, so no single word covers them and a stalled writer
 * could corrupt a newer record undetectably. Slots also never straddle the
 * end of the ring, so no padding records are needed.
 *
 * Sequence word of the slot used by absolute index i of its ring:
 *   KESTREL_RECORDER_STAMP(i)      the slot holds the committed part of i
 *   KESTREL_RECORDER_STAMP(i) - 1  a writer of i owns it and is writing
 * Stamps grow with i, so a writer that finds a stamp >= its own was lapped
 * and gives up; 0 means never written.
 *
 * A record longer than one slot's payload spans nparts consecutive indices
 * (reserved with one add on the head); every part repeats the record length
 * and its part number so a reader can reassemble it or drop it whole.
 */
#ifndef KESTREL_SHARED_RECORDER_FORMAT_H
#define KESTREL_SHARED_RECORDER_FORMAT_H

#include "kernel_types.h"

#define KESTREL_RECORDER_SLOT_BYTES	128
#define KESTREL_RECORDER_SLOT_HDR_BYTES 16
#define KESTREL_RECORDER_SLOT_PAYLOAD                                                              \
	(KESTREL_RECORDER_SLOT_BYTES - KESTREL_RECORDER_SLOT_HDR_BYTES)
/* The longest record a recorder accepts: 64 parts of 112 bytes. */
#define KESTREL_RECORDER_MAX_PARTS 64
#define KESTREL_RECORDER_MAX_RECORD_BYTES                                                          \
	(KESTREL_RECORDER_MAX_PARTS * KESTREL_RECORDER_SLOT_PAYLOAD)

#define KESTREL_RECORDER_STAMP(index) (((__u64)(index) + 1) << 1)

/* Rings a recorder may have: one shared, or one per possible CPU. */
#define KESTREL_RECORDER_MAX_RINGS 1024

struct kestrel_recorder_slot {
	__u64 seq;    /* see KESTREL_RECORDER_STAMP */
	__u32 len;    /* bytes of the whole record */
	__u16 part;   /* 0 .. nparts - 1 */
	__u16 nparts; /* slots the record spans */
	__u8 payload[KESTREL_RECORDER_SLOT_PAYLOAD];
};

/* One per ring, a cache line each so rings of different CPUs never share
 * one. `base` is the ring's first slot in the slot array, set at start. */
struct kestrel_recorder_head {
	__u64 next; /* slots ever reserved in this ring */
	__u32 base;
	__u32 reserved;
	__u64 pad[6];
};

#define KESTREL_RECORDER_MAGIC	 0x4b5245434f524452ULL /* "KRECORDR" */
#define KESTREL_RECORDER_VERSION 1

/* What a reader needs to interpret the pinned maps; written once at start. */
struct kestrel_recorder_info {
	__u64 magic;
	__u32 version;
	__u32 slot_bytes;
	__u32 n_rings;
	__u32 slots_per_ring; /* a power of two */
	__u64 boot_time_ns;   /* wall clock at boot, to print timestamps */
	__u64 cgroup_id;      /* 0 = every cgroup */
	__u64 started_boot_ns;
};

#endif /* KESTREL_SHARED_RECORDER_FORMAT_H */
