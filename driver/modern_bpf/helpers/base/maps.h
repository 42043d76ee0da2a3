/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Maps and globals of the probe. Each program is its own object file; the
 * definitions are __weak so `bpftool gen object` merges them into one map
 * each when it links the objects.
 */
#ifndef KESTREL_BPF_MAPS_H
#define KESTREL_BPF_MAPS_H

#include "vmlinux.h"

#include <bpf/bpf_helpers.h>

#include "../../shared/capture_settings.h"
#include "../../shared/counters.h"
#include "../../shared/event_schema.h"
#include "../../shared/event_types.h"
#include "../../shared/record_format.h"
#include "../../shared/syscall_table_x86_64.h"
#include "control_block.h"

/* Load-time constants, fixed by user space before the verifier sees them. */
__weak const volatile __u64 ring_wakeup_threshold_bytes = 0;

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct kestrel_cpu_counters);
} cpu_counters __weak SEC(".maps");

/* CPU id -> ring. Several CPUs may share one ring; the topology is chosen by
 * user space at load time by filling this table. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, 0); /* set to the number of possible CPUs */
	__type(key, __u32);
	__array(
	    values, struct {
		    __uint(type, BPF_MAP_TYPE_RINGBUF);
		    __uint(max_entries, 4096);
	    });
} ringbuf_maps __weak SEC(".maps");

/* Per-CPU scratch for building variable-length records (record_builder.h).
 * An ARRAY indexed by CPU rather than a PERCPU_ARRAY: per-CPU values are
 * capped at 32 KiB. */
struct scratch_area {
	__u32 payload_off; /* next free byte in buf */
	__u16 type;
	__u8 nparams;
	__u8 next_param;
	__u16 flags;
	__u16 reserved;
	/* What the record's data parameters may keep, from the settings copy
	 * the dispatcher read consistently (tail-called fillers cannot see it):
	 * the IN_SCRATCH rows of shared/settings_table.h. */
	KESTREL_SETTINGS_TABLE(KESTREL_SCRATCH_MEMBER)
	/* Twice the largest record: masked offsets stay inside. Aligned
	 * whatever the settings rows above add up to, for the header's
	 * __u64 stores. */
	__u8 buf[2 * KESTREL_MAX_RECORD_BYTES] __attribute__((aligned(8)));
	/* Paths are assembled backwards here before they join the record. */
	__u8 path[2 * KESTREL_MAX_PATH];
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 0); /* set to the number of possible CPUs */
	__type(key, __u32);
	__type(value, struct scratch_area);
} scratch_maps __weak SEC(".maps");

/* Event index (KESTREL_EVENT_INDEX) -> program that writes the event's
 * KPS_CUSTOM parameters and submits. Filled by user space from the programs
 * named fill_<event>. */
struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, KESTREL_N_SPECIFIC_EVENTS);
	__type(key, __u32);
	__type(value, __u32);
} custom_fillers __weak SEC(".maps");

#endif /* KESTREL_BPF_MAPS_H */
