/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Records of events whose parameters are all registers or the return value
 * (close, dup2, kill, setuid ...: event_register_len in schema_tables.h).
 * They are built in a small per-CPU buffer of their own and copied into the
 * ring in one go, without the table walk and without the large scratch
 * area, whose far-apart cache lines cost about 30 ns a record here. The
 * layout is the table filler's: the same records, reached by a shorter way.
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

/* Emits event `type`, whose event_register_len is `len`. */
static __always_inline void emit_register_record(struct pt_regs *regs, long ret, __u16 type,
						 __u32 len, __u64 pid_tgid,
						 struct kestrel_cpu_counters *counters)
{
	__u32 ev = KESTREL_EVENT_INDEX(type);
	__u32 cpu = bpf_get_smp_processor_id();
	__u64 values[SOURCE_VALUES];
	struct kestrel_register_record *r;
	__u32 zero = 0, n, off;

	r = bpf_map_lookup_elem(&register_records, &zero);
	if (!r || ev >= KESTREL_N_SPECIFIC_EVENTS)
		return;
	read_source_values(regs, ret, values);
	n = event_nparams[ev];
	off = 2 * n;
	for (__u32 i = 0; i < SCHEMA_REGISTER_MAX_PARAMS; i++) {
		const struct param_desc *d = &event_params[ev][i];

		if (i >= n || off > sizeof(r->body) - 8)
			break;
		*(__u16 *)&r->body[2 * i] = d->size;
		*(__u64 *)&r->body[off] = register_param_value(d->type, values[d->source & 7]);
		off += d->size;
	}
	/* Bounded here, next to its use: a test made earlier is kept by the
	 * compiler in a register the verifier no longer links to `len`. */
	barrier_var(len);
	if (len > SCHEMA_REGISTER_RECORD_BYTES)
		return;
	fill_record_header(&r->hdr, type, n, len, cpu, pid_tgid);
	output_record(r, len, cpu, counters);
}

#endif /* KESTREL_BPF_REGISTER_RECORD_H */
