/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Layout of an MPSC ring: the ring several CPUs share when a topology gives
 * one ring to a group of CPUs. Producers reserve room with one
 * compare-and-swap on the producer position instead of the BPF ring
 * buffer's spinlock, which two producers serialize on with interrupts off
 * (measured: a shared BPF ring buffer cut the producers' syscall rate to
 * 0.65-0.8x of per-CPU rings on this kind of VM; the MPSC ring ~1x).
 *
 * Records keep the BPF ring buffer's framing, so one reader handles both:
 * an 8-byte header (u32 length with a busy and a discard bit, u32 stamp),
 * then the record; but the whole is rounded up to a 64-byte cache line, not
 * to 8 bytes, so two CPUs never write one line: records of different CPUs
 * interleave in the ring, and a line shared by two of them bounced between
 * the CPUs on every record. Positions are byte
 * counts that only grow; a position's place in the ring is position modulo
 * the ring size.
 *
 * The ring's bytes are an mmappable array of equal chunks (a BPF program can
 * only address within one array element), a record never straddles two
 * chunks: a producer that would straddle also reserves the rest of the
 * chunk and writes a discarded pad record there.
 *
 * Publication: a producer that won the reservation writes the header with
 * the busy bit, then the record, then clears the busy bit. A reader must
 * tell "reserved, header not yet written" from a header, and what it finds
 * there before the producer writes is whatever an earlier lap left: a
 * header of another position, or record bytes. So the header's second word
 * is a stamp of its position: the position's line number XOR a random key
 * drawn at load time. A stale header carries another position's stamp, and
 * record bytes (which a traced process may choose) pass only by guessing
 * the key. Zeroing consumed bytes instead would also work, but the stores
 * made the reader dirty every line it read and cost 20-50% of a drain.
 */
#ifndef KESTREL_SHARED_MPSC_RING_FORMAT_H
#define KESTREL_SHARED_MPSC_RING_FORMAT_H

#include "kernel_types.h"

#define KESTREL_MPSC_HDR_BYTES 8
#define KESTREL_MPSC_ALIGN     64
#define KESTREL_MPSC_BUSY_BIT  (1U << 31) /* same as BPF_RINGBUF_BUSY_BIT */
#define KESTREL_MPSC_PAD_BIT   (1U << 30) /* same as BPF_RINGBUF_DISCARD_BIT */
/* The stamp of the header at ring position `pos` under `key`. */
#define KESTREL_MPSC_STAMP(pos, key) ((__u32)((pos) / KESTREL_MPSC_ALIGN) ^ (__u32)(key))

/* Ring space of a record of `len` bytes. */
#define KESTREL_MPSC_ROUND(len)                                                                    \
	((((__u64)(len)) + KESTREL_MPSC_HDR_BYTES + KESTREL_MPSC_ALIGN - 1) &                      \
	 ~(__u64)(KESTREL_MPSC_ALIGN - 1))

/* The largest chunk: an array element is capped at KMALLOC_MAX_SIZE (4 MiB),
 * and 1 MiB already holds the largest record (KESTREL_MAX_RECORD_BYTES)
 * with a pad waste below 0.1% of the ring. Rings smaller than this are one
 * chunk. */
#define KESTREL_MPSC_MAX_CHUNK_SHIFT 20

/* One per ring. Producer and consumer positions sit on their own cache
 * lines: producers bounce the first between them, the reader owns the
 * second. */
struct kestrel_mpsc_head {
	__u64 producer;	   /* bytes ever reserved */
	__u32 first_chunk; /* the ring's first element in the chunk array */
	__u32 reserved;
	__u64 pad0[6];
	__u64 consumer; /* bytes ever consumed and zeroed */
	__u64 pad1[7];
};

#endif /* KESTREL_SHARED_MPSC_RING_FORMAT_H */
