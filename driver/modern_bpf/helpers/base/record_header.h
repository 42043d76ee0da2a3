/* SPDX-License-Identifier: Apache-2.0 */
/* Fills the header every record starts with (shared/record_format.h). */
#ifndef KESTREL_BPF_RECORD_HEADER_H
#define KESTREL_BPF_RECORD_HEADER_H

#include "vmlinux.h"

#include <bpf/bpf_helpers.h>

#include "../../shared/record_format.h"

/* The header's fields after the timestamp pack into three 8-byte words,
 * written as such: a record then costs three stores for them, not nine. */
_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "the words are built little-endian");
_Static_assert(__builtin_offsetof(struct kestrel_record_header, tid) == 8 &&
		   __builtin_offsetof(struct kestrel_record_header, tgid) == 12 &&
		   __builtin_offsetof(struct kestrel_record_header, len) == 16 &&
		   __builtin_offsetof(struct kestrel_record_header, type) == 20 &&
		   __builtin_offsetof(struct kestrel_record_header, version) == 22 &&
		   __builtin_offsetof(struct kestrel_record_header, nparams) == 23 &&
		   __builtin_offsetof(struct kestrel_record_header, flags) == 24 &&
		   __builtin_offsetof(struct kestrel_record_header, cpu) == 26 &&
		   __builtin_offsetof(struct kestrel_record_header, reserved) == 28 &&
		   sizeof(struct kestrel_record_header) == 32,
	       "the header's words are tid|tgid, len|type|version|nparams, flags|cpu|reserved");

/* Everything but the timestamp: the sink stamps ts_ns as it puts the record
 * in its ring (helpers/sink/sink.h), so that a shared ring's order and its
 * records' timestamps agree (README, "Ordering guarantee"). */
static __always_inline void fill_record_header(struct kestrel_record_header *h, __u16 type,
					       __u8 nparams, __u32 len, __u32 cpu, __u64 pid_tgid)
{
	/* bpf_get_current_pid_tgid() holds the tgid in its high half. */
	const __u64 ids = pid_tgid;
	const __u64 shape = (__u64)len | (__u64)type << 32 | (__u64)KESTREL_SCHEMA_VERSION << 48 |
			    (__u64)nparams << 56;
	const __u64 origin = (__u64)(__u16)cpu << 16; /* flags 0, reserved 0 */

	__builtin_memcpy(&h->tid, &ids, sizeof(ids));
	__builtin_memcpy(&h->len, &shape, sizeof(shape));
	__builtin_memcpy(&h->flags, &origin, sizeof(origin));
}

/* param_len[0..n) of parameters of 8 bytes each, four lengths to a store
 * (`n` a multiple of 4, `param_len` right after the header). */
static __always_inline void set_u64_param_lens(__u16 *param_len, int n)
{
	const __u64 four = 0x0001000100010001ULL * sizeof(__u64);

	for (int i = 0; i < n; i += 4)
		__builtin_memcpy(&param_len[i], &four, sizeof(four));
}

/* What a sink does as the record at `rec` enters its ring. */
static __always_inline void stamp_record_time(void *rec)
{
	((struct kestrel_record_header *)rec)->ts_ns = bpf_ktime_get_boot_ns();
}

#endif /* KESTREL_BPF_RECORD_HEADER_H */
