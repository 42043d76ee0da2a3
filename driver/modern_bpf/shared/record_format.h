/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Layout of one event record as the probe writes it into a ring.
 *
 * Every record is self-describing so user space can skip records it does not
 * understand and new parameter types never break old readers:
 *
 *   struct kestrel_record_header   (fixed, 32 bytes)
 *   __u16 param_len[nparams]        (bytes of each parameter)
 *   parameter bytes, packed in order
 *
 * Integers are little-endian host order; user space reads parameters with
 * memcpy, so nothing after the header needs alignment.
 */
#ifndef KESTREL_SHARED_RECORD_FORMAT_H
#define KESTREL_SHARED_RECORD_FORMAT_H

#include "kernel_types.h"

/* Bumped whenever a record layout changes incompatibly. */
#define KESTREL_SCHEMA_VERSION 2

/* The largest record the probe will ever write; larger ones are dropped and
 * counted as too large instead of being cut at a random place. */
#define KESTREL_MAX_RECORD_BYTES (64 * 1024)

/* The largest single buffer parameter (I/O data, argv). A parameter's
 * length is a __u16, and a record must still fit its other parameters, a
 * path among them, under KESTREL_MAX_RECORD_BYTES; the snaplen, and a
 * full-capture port's data, stop here. */
#define KESTREL_MAX_BUFFER_PARAM_BYTES (16 * 1024)

/* kestrel_record_header.flags */
#define KESTREL_RECORD_TRUNCATED      (1U << 0) /* a parameter was cut to fit */
#define KESTREL_RECORD_PARAMS_MISSING (1U << 1) /* a filler was not loaded */
/* An ia32 syscall: the record is generic, its syscall_id the 64-bit twin's
 * and its args the ia32 argument registers (bx, cx, dx, si, di, bp). */
#define KESTREL_RECORD_IA32 (1U << 2)

struct kestrel_record_header {
	__u64 ts_ns; /* CLOCK_BOOTTIME when the record entered its ring, right
		      * after the syscall returned */
	__u32 tid;
	__u32 tgid;
	__u32 len;    /* the whole record, header included */
	__u16 type;   /* enum kestrel_event_type */
	__u8 version; /* KESTREL_SCHEMA_VERSION */
	__u8 nparams;
	__u16 flags;
	__u16 cpu; /* CPU the probe ran on */
	__u32 reserved;
};

#endif /* KESTREL_SHARED_RECORD_FORMAT_H */
