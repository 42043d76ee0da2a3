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

#include "../shared/capture_settings.h"
#include "../shared/counters.h"
#include "../shared/syscall_table_x86_64.h"

/* Load-time constants, fixed by user space before the verifier sees them. */
__weak const volatile __u64 ring_wakeup_threshold_bytes = 0;

/* 1 = emit a record for this syscall id. One byte per id so a toggle is a
 * single store from user space. */
__weak __u8 interesting_syscalls[KESTREL_SYSCALL_TABLE_SIZE];

__weak struct kestrel_settings_store settings_store;

/* Dropping mode's enum kestrel_drop_class per syscall id: one byte each so a
 * change is a single store. */
__weak __u8 syscall_drop_class[KESTREL_SYSCALL_TABLE_SIZE];

__weak struct kestrel_settings_generation settings_generation;

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

#endif /* KESTREL_BPF_MAPS_H */
