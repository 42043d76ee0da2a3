/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The producer side of an MPSC ring (protocol in shared/mpsc_ring_format.h):
 * reserve with a compare-and-swap on the ring's producer position, write
 * in place, publish by clearing the header's busy bit. ring_writer.h picks
 * this or a BPF ring buffer at load time.
 */
#ifndef KESTREL_BPF_MPSC_RING_WRITER_H
#define KESTREL_BPF_MPSC_RING_WRITER_H

#include "../base/global_func.h"
#include "../base/maps.h"
#include "../base/settings_reader.h"

#include "../../shared/mpsc_ring_format.h"

/* Load-time constants, fixed by user space before the verifier sees them. */
__weak const volatile __u32 mpsc_rings = 0; /* 1: rings are MPSC rings, not BPF ring buffers */
__weak const volatile __u32 mpsc_chunk_shift = 12;     /* log2 of a chunk's bytes */
__weak const volatile __u32 mpsc_chunk_index_mask = 0; /* chunks per ring - 1 */
__weak const volatile __u64 mpsc_ring_bytes = 4096;
__weak const volatile __u32 mpsc_stamp_key = 0; /* see KESTREL_MPSC_STAMP */
/* log2 of a block's bytes; 0: records are reserved one by one (a ring
 * of one CPU, where the producer position's line never moves). */
__weak const volatile __u32 mpsc_block_shift = 0;

/* A compare-and-swap loses only to another producer that won since this
 * one learned the position, but that window holds a timestamp read: with
 * two CPUs each reserving every ~150 ns, a try lost about one time in four,
 * and 8 tries dropped a record every ~30000 contended ones. 32 tries make
 * that about 1e-19; past them the record is dropped and counted rather
 * than spinning in a probe. */
#define KESTREL_MPSC_CLAIM_TRIES 32

/* A lane's compare-and-swap loses only to a program that interrupted this
 * one on the same CPU, or to the reader closing the block. */
#define KESTREL_MPSC_LANE_TRIES 4

/* CPU -> its ring's index in mpsc_heads. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1); /* set to the number of possible CPUs */
	__type(key, __u32);
	__type(value, __u32);
} mpsc_ring_of_cpu __weak SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 1); /* set to the number of rings */
	__type(key, __u32);
	__type(value, struct kestrel_mpsc_head);
} mpsc_heads __weak SEC(".maps");

/* Every ring's bytes, chunk by chunk. Declared by size, not by BTF type,
 * so user space can size a chunk to the ring at load time. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 1); /* set to rings * chunks per ring */
	__uint(key_size, 4);
	__uint(value_size, 8); /* set to the chunk size */
} mpsc_chunks __weak SEC(".maps");

/* Each CPU's open block in a ring of blocks. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 1); /* set to the number of possible CPUs */
	__type(key, __u32);
	__type(value, struct kestrel_mpsc_lane);
} mpsc_lanes __weak SEC(".maps");

static __always_inline struct kestrel_mpsc_head *mpsc_ring_of(__u32 cpu)
{
	__u32 *ring = bpf_map_lookup_elem(&mpsc_ring_of_cpu, &cpu);

	return ring ? bpf_map_lookup_elem(&mpsc_heads, ring) : NULL;
}

static __always_inline __u64 mpsc_chunk_bytes(void)
{
	return 1ULL << mpsc_chunk_shift;
}

/* The chunk holding ring position `pos`. */
static __always_inline __u8 *mpsc_chunk_at(const struct kestrel_mpsc_head *head, __u64 pos)
{
	__u32 id = head->first_chunk + ((__u32)(pos >> mpsc_chunk_shift) & mpsc_chunk_index_mask);

	return bpf_map_lookup_elem(&mpsc_chunks, &id);
}

/* The header word of the record at `pos` whose length word is `len_word`. */
static __always_inline __u64 mpsc_header(__u64 pos, __u32 len_word)
{
	return KESTREL_MPSC_HEADER(pos, mpsc_stamp_key, len_word);
}

/* Writes a pad record over the `bytes` at `pos` (a chunk's end, or a
 * block's unused tail), so the reader skips them. */
static __always_inline void mpsc_write_pad(struct kestrel_mpsc_head *head, __u64 pos, __u64 bytes)
{
	__u64 off = pos & (mpsc_chunk_bytes() - 1);
	__u8 *c = mpsc_chunk_at(head, pos);

	/* Neither check can fail: the chunk ids and offsets come from the
	 * layout user space sized the maps by. They are for the verifier. */
	if (c && off <= mpsc_chunk_bytes() - KESTREL_MPSC_HDR_BYTES)
		*(volatile __u64 *)(c + off) =
		    mpsc_header(pos, (bytes - KESTREL_MPSC_HDR_BYTES) | KESTREL_MPSC_PAD_BIT);
}

/* Frames the block of `bytes` at `start` as this CPU's. */
static __always_inline void mpsc_write_block_header(struct kestrel_mpsc_head *head, __u64 start,
						    __u64 bytes, __u32 cpu)
{
	__u64 off = start & (mpsc_chunk_bytes() - 1);
	__u8 *c = mpsc_chunk_at(head, start);

	if (!c || off > mpsc_chunk_bytes() - sizeof(struct kestrel_mpsc_block_header))
		return;
	*(volatile __u32 *)(c + off + offsetof(struct kestrel_mpsc_block_header, cpu)) = cpu;
	kestrel_compiler_barrier();
	*(volatile __u64 *)(c + off) = mpsc_header(start, bytes - KESTREL_MPSC_HDR_BYTES);
}

/* What this CPU last saw of its ring's positions. Both lines are written by
 * others (the other producers, the reader), so a CPU reads them only when
 * its cached view fails. */
struct kestrel_mpsc_view {
	__u64 producer_seen;
	__u64 consumer_seen;
};

/* One try of mpsc_claim: the position it tries from, and what the try
 * leaves for the next one or for the caller. */
struct kestrel_mpsc_try {
	__u64 p;   /* in: the position to swap from; out: the current one */
	__u64 end; /* out: the producer position after the record */
	__u64 pad; /* out: bytes skipped to the next chunk before the record */
	__u64 ts;  /* out: the record's timestamp */
};

#define KESTREL_MPSC_TRY_CLAIMED 0
#define KESTREL_MPSC_TRY_FULL	 1
#define KESTREL_MPSC_TRY_LOST	 2 /* another producer moved it: try again from t->p */

/* A global function: the verifier checks one try once per program, where
 * the tries unrolled in mpsc_claim's loop cost it about 7,000 instructions
 * (each try's pad and consumer branches leave distinct states for every
 * try after it). */
KESTREL_GLOBAL_FUNC int mpsc_try_claim(struct kestrel_mpsc_head *head, __u64 need,
				       struct kestrel_mpsc_view *view, struct kestrel_mpsc_try *t)
{
	const __u64 chunk = mpsc_chunk_bytes();
	__u64 p, off, pad, end, seen;

	if (!head || !view || !t)
		return KESTREL_MPSC_TRY_FULL;
	p = t->p;
	off = p & (chunk - 1);
	pad = off + need > chunk ? chunk - off : 0;
	end = p + pad + need;
	if (end - view->consumer_seen > mpsc_ring_bytes) {
		view->consumer_seen = *(volatile __u64 *)&head->consumer;
		/* The real position is at least the guess, so a guess already
		 * too far ahead means full. A guess behind the consumer is
		 * stale: the swap fails and corrects it. */
		if (p >= view->consumer_seen && end - view->consumer_seen > mpsc_ring_bytes)
			return KESTREL_MPSC_TRY_FULL;
	}
	t->ts = bpf_ktime_get_boot_ns();
	seen = __sync_val_compare_and_swap(&head->producer, p, end);
	if (seen != p) {
		t->p = seen;
		return KESTREL_MPSC_TRY_LOST;
	}
	t->end = end;
	t->pad = pad;
	return KESTREL_MPSC_TRY_CLAIMED;
}

/* Reserves `need` bytes (a KESTREL_MPSC_ROUND'ed record) that do not
 * straddle a chunk; returns their position and the record's timestamp, or
 * false when the ring is full or the record larger than a chunk.
 *
 * The compare-and-swap starts from the position this CPU saw last rather
 * than from a fresh load: a load would fetch the contended line shared and
 * the swap fetch it again to own it, while a failed swap already returns
 * the current position with the line owned, so the retry usually succeeds
 * at once.
 *
 * The timestamp is read before each swap. A swap succeeds only from a
 * position this CPU learned after the previous reservation succeeded, whose
 * own timestamp was read before that: timestamps therefore grow in ring
 * order. Read after the reservation instead, two CPUs' records disagreed
 * with their ring order about 1% of the time. */
static __always_inline bool mpsc_claim(struct kestrel_mpsc_head *head, __u64 need,
				       struct kestrel_mpsc_view *view, __u64 *pos, __u64 *ts)
{
	struct kestrel_mpsc_try t = {.p = view->producer_seen};
	int i, r = KESTREL_MPSC_TRY_LOST;

	if (need > mpsc_chunk_bytes())
		return false;
	for (i = 0; i < KESTREL_MPSC_CLAIM_TRIES && r == KESTREL_MPSC_TRY_LOST; i++)
		r = mpsc_try_claim(head, need, view, &t);
	if (r != KESTREL_MPSC_TRY_CLAIMED)
		return false;
	view->producer_seen = t.end;
	if (t.pad)
		mpsc_write_pad(head, t.p, t.pad);
	*pos = t.p + t.pad;
	*ts = t.ts;
	return true;
}

/* Reserves `need` bytes inside this CPU's open block, or, when they do not
 * fit, closes it and reserves a new block on the ring's producer position
 * (mpsc_claim) with the record at its start. Returns as mpsc_claim does;
 * the timestamp is read before the swap that placed the record, so a CPU's
 * records are in timestamp order in the ring. */
static __always_inline bool mpsc_claim_in_block(struct kestrel_mpsc_head *head, __u64 need,
						struct kestrel_mpsc_view *view, __u64 *pos,
						__u64 *ts)
{
	const __u64 block = 1ULL << mpsc_block_shift;
	__u32 cpu = bpf_get_smp_processor_id();
	struct kestrel_mpsc_lane *lane = bpf_map_lookup_elem(&mpsc_lanes, &cpu);
	__u64 p = 0, off, end, fill, bytes, start, closed_at = 0;
	bool lane_kept = true;
	int i;

	if (!lane)
		return false;
	for (i = 0; i < KESTREL_MPSC_LANE_TRIES; i++) {
		p = *(volatile __u64 *)&lane->next;
		off = p & (block - 1);
		if (!off)
			break; /* no open block */
		if (off + need > block) {
			/* Close it: the rest becomes a pad, then a new block. */
			end = p - off + block;
			if (__sync_val_compare_and_swap(&lane->next, p, end) != p)
				continue;
			closed_at = p;
			p = end; /* the closed block's end */
			break;
		}
		*ts = bpf_ktime_get_boot_ns();
		if (__sync_val_compare_and_swap(&lane->next, p, p + need) == p) {
			*pos = p;
			return true;
		}
	}
	if (i == KESTREL_MPSC_LANE_TRIES)
		return false;

	fill = KESTREL_MPSC_BLOCK_HDR_BYTES + need;
	bytes = (fill + block - 1) & ~(block - 1);
	if (!mpsc_claim(head, bytes, view, &start, ts)) {
		if (closed_at)
			mpsc_write_pad(head, closed_at, p - closed_at);
		return false;
	}
	/* The lane is still at `p` unless a program that interrupted this one
	 * opened a block of its own: then this block keeps one record and its
	 * rest is a pad, so no block is left open without its lane. */
	if (fill != bytes)
		lane_kept = __sync_val_compare_and_swap(&lane->next, p, start + fill) == p;
	/* Every locked instruction comes before these stores: a pad or a
	 * header is the first store into its line since the ring's last lap,
	 * a cache miss that a later swap would wait for. Until they land, the
	 * reader sees the closed block unfinished and the new one unwritten,
	 * and waits. */
	if (closed_at)
		mpsc_write_pad(head, closed_at, p - closed_at);
	mpsc_write_block_header(head, start, bytes, cpu);
	if (!lane_kept)
		mpsc_write_pad(head, start + fill, bytes - fill);
	*pos = start + KESTREL_MPSC_BLOCK_HDR_BYTES;
	return true;
}

/* Where a record of `need` bytes goes: see mpsc_claim and
 * mpsc_claim_in_block. A global function: the verifier walks the lane and
 * claim retry loops once per program instead of once per call site and
 * per path leading to it (about 12,000 instructions each time; the
 * dispatcher has five such sites). It returns only scalars, so the record
 * pointer is derived from `pos` by the caller. */
KESTREL_GLOBAL_FUNC int mpsc_place(struct kestrel_mpsc_head *head, __u64 need,
				   struct kestrel_mpsc_view *view, __u64 *pos, __u64 *ts)
{
	if (!head || !view || !pos || !ts)
		return 0;
	if (mpsc_block_shift)
		return mpsc_claim_in_block(head, need, view, pos, ts);
	return mpsc_claim(head, need, view, pos, ts);
}

/* The chunk of the record at `pos` and the record's offset in it, checked
 * to leave `need` bytes before the chunk's end; NULL only if the layout
 * were inconsistent, the check is for the verifier. */
static __always_inline __u8 *mpsc_chunk_of(struct kestrel_mpsc_head *head, __u64 pos, __u64 need,
					   __u64 *off)
{
	__u8 *c = mpsc_chunk_at(head, pos);

	*off = pos & (mpsc_chunk_bytes() - 1);
	if (!c || *off > mpsc_chunk_bytes() - need)
		return NULL;
	return c;
}

/* Room for a record of the constant `size` bytes (at least a record
 * header), timestamped, written in place; NULL when it cannot go in. */
static __always_inline void *mpsc_reserve(struct kestrel_mpsc_head *head, __u64 size,
					  struct kestrel_mpsc_view *view)
{
	const __u64 need = KESTREL_MPSC_ROUND(size);
	struct kestrel_record_header *rec;
	__u64 pos, ts, off;
	__u8 *c;

	if (!mpsc_place(head, need, view, &pos, &ts))
		return NULL;
	c = mpsc_chunk_of(head, pos, need, &off);
	if (!c)
		return NULL;
	*(volatile __u64 *)(c + off) = mpsc_header(pos, size | KESTREL_MPSC_BUSY_BIT);
	rec = (void *)(c + off + KESTREL_MPSC_HDR_BYTES);
	rec->ts_ns = ts;
	return rec;
}

/* x86_64 keeps stores in program order: a compiler barrier is enough for
 * every record store to be visible before the header says it is whole. */
static __always_inline void mpsc_submit(void *record, __u64 size)
{
	kestrel_compiler_barrier();
	*(volatile __u32 *)((__u8 *)record - KESTREL_MPSC_HDR_BYTES) = size;
}

/* Copies a record of `len` bytes built at `src` into the ring and stamps
 * the copy's timestamp. */
static __always_inline bool mpsc_output(struct kestrel_mpsc_head *head, const void *src, __u32 len,
					struct kestrel_mpsc_view *view)
{
	/* The header and the record header's timestamp are stored directly. */
	const __u64 direct = KESTREL_MPSC_HDR_BYTES + sizeof(__u64);
	struct bpf_dynptr chunk_mem;
	__u64 pos, ts, off;
	__u32 header = len;
	__u8 *c;

	if (len < sizeof(struct kestrel_record_header) ||
	    !mpsc_place(head, KESTREL_MPSC_ROUND(len), view, &pos, &ts))
		return false;
	c = mpsc_chunk_of(head, pos, direct, &off);
	if (!c)
		return false;
	*(volatile __u64 *)(c + off) = mpsc_header(pos, len | KESTREL_MPSC_BUSY_BIT);
	/* The verifier cannot relate a variable offset to a variable length;
	 * a dynptr over the chunk checks the bounds at run time instead. */
	if (bpf_dynptr_from_mem(c, mpsc_chunk_bytes(), 0, &chunk_mem) ||
	    bpf_dynptr_write(&chunk_mem, off + KESTREL_MPSC_HDR_BYTES, (void *)src, len, 0))
		header = len | KESTREL_MPSC_PAD_BIT; /* reserved but unwritten: skip it */
	else
		*(__u64 *)(c + off + KESTREL_MPSC_HDR_BYTES) = ts;
	kestrel_compiler_barrier();
	*(volatile __u32 *)(c + off) = header;
	return header == len;
}

/* Bytes reserved and not yet consumed. */
static __always_inline __u64 mpsc_backlog(const struct kestrel_mpsc_head *head)
{
	return *(volatile __u64 *)&head->producer - *(volatile __u64 *)&head->consumer;
}

#endif /* KESTREL_BPF_MPSC_RING_WRITER_H */
