/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Records of events whose parameters are all registers or the return value
 * (close, dup2, kill, setuid ...: event_register_len in schema_tables.h).
 * They are built in a small per-CPU buffer of their own and copied into the
 * ring in one go, without the large scratch area, whose far-apart cache
 * lines cost about 30 ns a record here. The layout is the table filler's:
 * the same records, reached by a shorter way.
 */
#ifndef KESTREL_BPF_REGISTER_RECORD_H
#define KESTREL_BPF_REGISTER_RECORD_H

#include "vmlinux.h"

#include <bpf/bpf_helpers.h>

#include "record_builder.h"
#include "schema_tables.h"
#include "table_filler.h"

struct kestrel_register_record {
	struct kestrel_record_header hdr;
	/* Lengths, then values; 8 bytes of slack because every value is
	 * stored as 8 bytes and the next one overwrites what a 4-byte value
	 * does not own. */
	__u8 body[SCHEMA_REGISTER_RECORD_BYTES - sizeof(struct kestrel_record_header) + 8];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct kestrel_register_record);
} register_records __weak SEC(".maps");

/* One case per register event, its parameters stored in schema order: with
 * sizes and sources constants, each is a length store, a register read and
 * a value store at a fixed offset, where walking the schema tables cost a
 * table load per parameter. The length slots come first (2 bytes each),
 * then the values; every value is stored as 8 bytes (see body). */
#define REGISTER_PARAM_WRITE(name, type, source, flag_set)                                         \
	*(__u16 *)&r->body[2 * i] = KESTREL_PARAM_FIXED_SIZE(type);                                \
	*(__u64 *)&r->body[off] = register_param_value(type, source_value(regs, ret, source));     \
	off += KESTREL_PARAM_FIXED_SIZE(type);                                                     \
	i++;
#define REGISTER_EVENT_CASE(name, syscall, params)                                                 \
	case KESTREL_EVT_##name:                                                                   \
		if (SCHEMA_EVENT_REGISTER_BYTES(name, params)) {                                   \
			__u32 i = 0, off = 2 * KESTREL_NPARAMS_##name;                             \
			params(REGISTER_PARAM_WRITE)                                               \
		}                                                                                  \
		break;

/* Emits event `type`, whose event_register_len is `len`. */
static __always_inline void emit_register_record(struct pt_regs *regs, long ret, __u16 type,
						 __u32 len, __u64 pid_tgid,
						 struct kestrel_cpu_counters *counters)
{
	__u32 ev = KESTREL_EVENT_INDEX(type);
	__u32 cpu = bpf_get_smp_processor_id();
	struct kestrel_register_record *r;
	__u32 zero = 0;

	r = bpf_map_lookup_elem(&register_records, &zero);
	if (!r || ev >= KESTREL_N_SPECIFIC_EVENTS)
		return;
	/* Per-case values (offsets, sizes) stay inside the cases: after the
	 * switch every path is in the same verifier state again. */
	switch (type) {
		KESTREL_SYSCALL_EVENTS(REGISTER_EVENT_CASE)
	default:
		return;
	}
	/* Bounded here, next to its use: a test made earlier is kept by the
	 * compiler in a register the verifier no longer links to `len`. */
	barrier_var(len);
	if (len > SCHEMA_REGISTER_RECORD_BYTES)
		return;
	fill_record_header(&r->hdr, type, event_nparams[ev], len, cpu, pid_tgid);
	output_record(r, len, cpu, counters);
}

#undef REGISTER_EVENT_CASE
#undef REGISTER_PARAM_WRITE

#endif /* KESTREL_BPF_REGISTER_RECORD_H */
