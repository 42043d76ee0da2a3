/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Dropping mode: under load user space asks the probe to keep only 1 in N
 * of the droppable syscalls. Each syscall id has a class (never drop, always
 * drop, sampled); the sampling tick is per CPU, so on one CPU exactly one
 * call in N is kept, starting with the first. Each CPU marks the moment it
 * enters and leaves dropping mode with a DROP_START / DROP_STOP record, so
 * a reader knows which stretch of the stream is thinned.
 */
#ifndef KESTREL_BPF_SAMPLING_H
#define KESTREL_BPF_SAMPLING_H

#include "../build/control_records.h"
#include "../base/maps.h"

struct kestrel_sampling_state {
	__u64 tick;
	__u8 dropping; /* the dropping_mode this CPU last acted on */
	__u8 reserved[7];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct kestrel_sampling_state);
} sampling_state __weak SEC(".maps");

static __noinline void emit_drop_marker(__u16 type, __u32 ratio,
					struct kestrel_cpu_counters *counters)
{
	struct kestrel_control_block *cb = control_block();
	struct kestrel_sampling_marker_record r;
	__u32 cpu = bpf_get_smp_processor_id();

	if (!cb)
		return;
	control_header(&r.hdr, sizeof(r), type, KESTREL_SAMPLING_MARKER_NPARAMS, cpu);
	r.param_len[0] = sizeof(r.sampling_ratio);
	r.param_len[1] = sizeof(r.generation);
	r.sampling_ratio = ratio;
	r.generation = *(volatile __u64 *)&cb->generation.generation;
	output_record(&r, sizeof(r), cpu, counters);
}

_Static_assert((KESTREL_SYSCALL_TABLE_SIZE & (KESTREL_SYSCALL_TABLE_SIZE - 1)) == 0,
	       "the id mask below needs a power-of-two table");

/* True to keep the record of syscall `id`; a syscall left out is counted as
 * a sampling drop, so consumed + dropped still adds up to attempted. */
static __always_inline bool sample_keep(const struct kestrel_capture_settings *s, __u64 id,
					struct kestrel_cpu_counters *counters)
{
	struct kestrel_control_block *cb;
	struct kestrel_sampling_state *st;
	__u32 zero = 0;
	__u8 class;

	st = bpf_map_lookup_elem(&sampling_state, &zero);
	if (!st)
		return true;
	if (st->dropping != s->dropping_mode) {
		st->dropping = s->dropping_mode;
		st->tick = 0;
		emit_drop_marker(s->dropping_mode ? KESTREL_EVT_DROP_START : KESTREL_EVT_DROP_STOP,
				 s->sampling_ratio, counters);
	}
	if (!s->dropping_mode)
		return true;
	cb = control_block();
	if (!cb)
		return true;
	class = cb->syscall_drop_class[id & (KESTREL_SYSCALL_TABLE_SIZE - 1)];
	if (class == KESTREL_DROP_NEVER)
		return true;
	if (class == KESTREL_DROP_SAMPLED &&
	    (s->sampling_ratio <= 1 || st->tick++ % s->sampling_ratio == 0))
		return true;
	counter_inc(counters->drops_sampling);
	return false;
}

#endif /* KESTREL_BPF_SAMPLING_H */
