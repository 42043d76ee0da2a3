// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ring buffer's ceiling, for `kestrel bench rings`: on each getppid of
 * one process, write a fixed record (or a batch of them) with nothing else
 * in the way: no settings, no filter table, no wakeup. Built into its own
 * skeleton; it shares no map with the probe.
 */
#include "vmlinux.h"

#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "../../../driver/modern_bpf/shared/record_format.h"

#define BENCH_MAX_BATCH 64

const volatile __u32 bench_tgid = 0;
const volatile __u32 bench_syscall_id = 0; /* the trigger, set by user space */
const volatile __u32 bench_batch = 1;

struct bench_counters {
	__u64 written;
	__u64 dropped;
};

struct bench_record {
	struct kestrel_record_header hdr;
	__u64 seq;
	__u64 pad[3];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct bench_counters);
} bench_counters SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, 0); /* set to the number of possible CPUs */
	__type(key, __u32);
	__array(
	    values, struct {
		    __uint(type, BPF_MAP_TYPE_RINGBUF);
		    __uint(max_entries, 4096);
	    });
} bench_rings SEC(".maps");

SEC("tp_btf/sys_exit")
int BPF_PROG(kestrel_bench_producer, struct pt_regs *regs, long ret)
{
	__u32 cpu = bpf_get_smp_processor_id(), zero = 0;
	struct bench_counters *c;
	void *ring;

	if (regs->orig_ax != bench_syscall_id || bpf_get_current_pid_tgid() >> 32 != bench_tgid)
		return 0;
	c = bpf_map_lookup_elem(&bench_counters, &zero);
	ring = bpf_map_lookup_elem(&bench_rings, &cpu);
	if (!c || !ring)
		return 0;
	for (__u32 i = 0; i < BENCH_MAX_BATCH; i++) {
		struct bench_record *r;

		if (i >= bench_batch)
			break;
		r = bpf_ringbuf_reserve(ring, sizeof(*r), 0);
		if (!r) {
			__sync_fetch_and_add(&c->dropped, 1);
			continue;
		}
		r->hdr.ts_ns = bpf_ktime_get_boot_ns();
		r->hdr.len = sizeof(*r);
		r->hdr.cpu = cpu;
		r->seq = i;
		bpf_ringbuf_submit(r, BPF_RB_NO_WAKEUP);
		__sync_fetch_and_add(&c->written, 1);
	}
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
