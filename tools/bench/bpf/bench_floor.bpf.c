// SPDX-License-Identifier: GPL-2.0-only
/*
 * The reference floors `kestrel bench overhead` measures the probe against,
 * loaded from their own object so they share nothing with the probe:
 *  - an empty sys_exit hook: the least any tracer can cost per syscall;
 *  - one hook that stamps time and pid into a 64-byte ringbuf record,
 *    committed without a wakeup: the least a capturing tracer can cost.
 * The record program only fires for one thread so that the rest of the
 * machine keeps paying the empty-hook price and the ring holds only the
 * bench's records.
 *  - an empty program on per-syscall exit tracepoints (syscalls:sys_exit_*),
 *    attached by user space to each syscall of a set: the least a
 *    per-syscall attachment can cost, for the syscalls in the set and for
 *    every other one.
 */
#include "vmlinux.h"

#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

struct bench_floor_record {
	__u64 ts_ns;
	__u64 pid_tgid;
	__u64 syscall_id;
	__u64 pad[5];
};

_Static_assert(sizeof(struct bench_floor_record) == 64, "the floor is a 64-byte record");

/* The thread whose syscalls are recorded; set by user space. */
__u32 record_tid;

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 8 * 1024 * 1024);
} floor_ring SEC(".maps");

SEC("tp_btf/sys_exit")
int BPF_PROG(bench_empty_exit, struct pt_regs *regs, long ret)
{
	return 0;
}

SEC("tp_btf/sys_exit")
int BPF_PROG(bench_record_exit, struct pt_regs *regs, long ret)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	struct bench_floor_record *r;

	if ((__u32)pid_tgid != record_tid)
		return 0;
	r = bpf_ringbuf_reserve(&floor_ring, sizeof(*r), 0);
	if (!r)
		return 0;
	r->ts_ns = bpf_ktime_get_boot_ns();
	r->pid_tgid = pid_tgid;
	r->syscall_id = regs->orig_ax;
	bpf_ringbuf_submit(r, BPF_RB_NO_WAKEUP);
	return 0;
}

/* The section names one tracepoint; user space attaches the program to
 * each syscall's exit tracepoint in turn. */
SEC("tracepoint/syscalls/sys_exit_openat")
int bench_empty_syscall_exit(void *ctx)
{
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
