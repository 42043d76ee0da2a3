/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Layout of an MPSC ring, the default ring of every topology. Producers
 * reserve room with one compare-and-swap on the producer position instead
 * of the BPF ring buffer's spinlock, which two producers serialize on with
 * interrupts off (measured on the 2-vCPU Intel VM: two CPUs sharing a BPF
 * ring buffer made 0.34-0.42x the syscalls of per-CPU rings; sharing an
 * MPSC ring, 0.61-0.82x record by record and 0.85-0.96x in blocks, below).
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
/* The header word at `pos`: its length word (length and bits), then its stamp. */
#define KESTREL_MPSC_HEADER(pos, key, len_word)                                                    \
	((__u64)KESTREL_MPSC_STAMP(pos, key) << 32 | (__u32)(len_word))
/* Whether `header`, read at `pos`, was written there: never-written zeroes,
 * whose stamp may match, do not count. */
#define KESTREL_MPSC_HEADER_IS_FOR(header, pos, key)                                               \
	((__u32)(header) != 0 && (__u32)((header) >> 32) == KESTREL_MPSC_STAMP(pos, key))

/* Ring space of a record of `len` bytes. */
#define KESTREL_MPSC_ROUND(len)                                                                    \
	((((__u64)(len)) + KESTREL_MPSC_HDR_BYTES + KESTREL_MPSC_ALIGN - 1) &                      \
	 ~(__u64)(KESTREL_MPSC_ALIGN - 1))

/* The largest chunk: an array element is capped at KMALLOC_MAX_SIZE (4 MiB),
 * and 1 MiB already holds the largest record (KESTREL_MAX_RECORD_BYTES)
 * with a pad waste below 0.1% of the ring. Rings smaller than this are one
 * chunk. */
#define KESTREL_MPSC_MAX_CHUNK_SHIFT 20

/*
 * Blocks: a ring shared by several CPUs is reserved a block at a time. With
 * every record reserved on the shared producer position, each reservation
 * took that cache line from the other CPU, and the producers' syscall rate
 * was 0.61x that of per-CPU rings. So a CPU reserves a block (a multiple of
 * the block size, 2^mpsc_block_shift, at a position that is a multiple of
 * it) on the shared position, and then its records inside the block with a
 * compare-and-swap on its own lane, a line no other CPU writes.
 *
 * At the top level such a ring holds blocks and chunk-end pads. A block is
 * framed as a record, never busy, its header line followed by the owning
 * CPU's records, framed and stamped as records at the top level are. Its
 * unused tail becomes a pad record when the block is closed: by its CPU,
 * when the next record does not fit, or by the reader, when a CPU left a
 * block open and went quiet (the reader cannot give back space past it).
 *
 * The records of a CPU are in timestamp order in the ring; the records of
 * several CPUs interleave block by block, and the reader merges them by
 * timestamp as it merges rings.
 */
#define KESTREL_MPSC_BLOCK_HDR_BYTES KESTREL_MPSC_ALIGN

struct kestrel_mpsc_block_header {
	__u32 len; /* the block's bytes - KESTREL_MPSC_HDR_BYTES */
	__u32 stamp;
	__u32 cpu; /* the CPU whose records the block holds */
	__u32 reserved;
};

/* One per CPU, on its own cache line: where the CPU's next record goes in
 * its open block, or a multiple of the block size when it has none open
 * (the end of the block it closed last). Producers and the reader change it
 * only by compare-and-swap, and it only grows. */
struct kestrel_mpsc_lane {
	__u64 next;
	__u64 pad[7];
};

/* One per ring. Producer and consumer positions sit on their own cache
 * lines: producers bounce the first between them, the reader owns the
 * second. */
struct kestrel_mpsc_head {
	__u64 producer;	   /* bytes ever reserved */
	__u32 first_chunk; /* the ring's first element in the chunk array */
	__u32 reserved;
	__u64 pad0[6];
	__u64 consumer; /* bytes ever consumed */
	__u64 pad1[7];
};

#endif /* KESTREL_SHARED_MPSC_RING_FORMAT_H */
