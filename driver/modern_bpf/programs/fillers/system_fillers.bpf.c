// SPDX-License-Identifier: GPL-2.0-only
/*
 * Custom parameters of system events (schema/system_events.h), reached by
 * tail call from the dispatcher after the table-driven parameters are
 * written. Compiled through fillers.bpf.c, with the other families: names
 * here must not collide with theirs.
 */
#include "vmlinux.h"

#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "../../helpers/build/filler_scratch.h"
#include "../../helpers/build/record_builder.h"
#include "../../helpers/extract/io_data.h"

/* A u32 of user memory, 0 when unreadable (Falco's convention for the
 * getres*id out-pointers). */
static __always_inline __u32 sys_user_u32(__u64 ptr)
{
	__u32 v = 0;

	bpf_probe_read_user(&v, sizeof(v), (const void *)ptr);
	return v;
}

/* getresuid/getresgid(r, e, s): the three ids the kernel wrote back. */
static __always_inline int fill_three_ids(__u16 type, struct pt_regs *regs)
{
	struct scratch_area *s = scratch_for(type);

	if (!s)
		return 0;
	rb_u32(s, sys_user_u32(regs->di));
	rb_u32(s, sys_user_u32(regs->si));
	rb_u32(s, sys_user_u32(regs->dx));
	rb_submit(s);
	return 0;
}

SEC("tp_btf/sys_exit")
int BPF_PROG(fill_GETRESUID, struct pt_regs *regs, long ret)
{
	return fill_three_ids(KESTREL_EVT_GETRESUID, regs);
}

SEC("tp_btf/sys_exit")
int BPF_PROG(fill_GETRESGID, struct pt_regs *regs, long ret)
{
	return fill_three_ids(KESTREL_EVT_GETRESGID, regs);
}

/* A user struct rlimit as two signed values (RLIM_INFINITY reads as -1);
 * `missing` for both when the pointer is NULL or unreadable. */
static __always_inline void rb_user_rlimit(struct scratch_area *s, __u64 ptr, __s64 missing)
{
	struct rlimit rl = {};

	if (!ptr || bpf_probe_read_user(&rl, sizeof(rl), (const void *)ptr) != 0) {
		rb_u64(s, (__u64)missing);
		rb_u64(s, (__u64)missing);
		return;
	}
	rb_u64(s, rl.rlim_cur);
	rb_u64(s, rl.rlim_max);
}

SEC("tp_btf/sys_exit")
int BPF_PROG(fill_GETRLIMIT, struct pt_regs *regs, long ret)
{
	struct scratch_area *s = scratch_for(KESTREL_EVT_GETRLIMIT);

	if (!s)
		return 0;
	rb_user_rlimit(s, ret == 0 ? regs->si : 0, -1);
	rb_submit(s);
	return 0;
}

SEC("tp_btf/sys_exit")
int BPF_PROG(fill_SETRLIMIT, struct pt_regs *regs, long ret)
{
	struct scratch_area *s = scratch_for(KESTREL_EVT_SETRLIMIT);

	if (!s)
		return 0;
	rb_user_rlimit(s, regs->si, 0);
	rb_submit(s);
	return 0;
}

SEC("tp_btf/sys_exit")
int BPF_PROG(fill_PRLIMIT64, struct pt_regs *regs, long ret)
{
	struct scratch_area *s = scratch_for(KESTREL_EVT_PRLIMIT64);

	if (!s)
		return 0;
	rb_user_rlimit(s, regs->dx, 0);
	rb_user_rlimit(s, ret == 0 ? regs->r10 : 0, -1);
	rb_submit(s);
	return 0;
}

/* Pages to KiB, as /proc/PID/status counts them. */
#define SYS_PAGE_TO_KIB(pages) ((__u32)((pages) << (12 - 10)))

/* A batched mm counter's shared value; negative transients read as 0. */
static __always_inline __u64 sys_mm_counter(struct mm_struct *mm, int member)
{
	__s64 v = BPF_CORE_READ(mm, rss_stat[member].count);

	return v > 0 ? (__u64)v : 0;
}

/* VmSize, VmRSS (file + anon + shmem) and VmSwap of the caller's mm. */
static __always_inline void rb_mm_counters(struct scratch_area *s)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct mm_struct *mm = task->mm;

	if (!mm) {
		rb_u32(s, 0);
		rb_u32(s, 0);
		rb_u32(s, 0);
		return;
	}
	rb_u32(s, SYS_PAGE_TO_KIB(BPF_CORE_READ(mm, total_vm)));
	rb_u32(s,
	       SYS_PAGE_TO_KIB(sys_mm_counter(mm, MM_FILEPAGES) + sys_mm_counter(mm, MM_ANONPAGES) +
			       sys_mm_counter(mm, MM_SHMEMPAGES)));
	rb_u32(s, SYS_PAGE_TO_KIB(sys_mm_counter(mm, MM_SWAPENTS)));
}

SEC("tp_btf/sys_exit")
int BPF_PROG(fill_BRK, struct pt_regs *regs, long ret)
{
	struct scratch_area *s = scratch_for(KESTREL_EVT_BRK);

	if (!s)
		return 0;
	rb_mm_counters(s);
	rb_submit(s);
	return 0;
}

SEC("tp_btf/sys_exit")
int BPF_PROG(fill_MUNMAP, struct pt_regs *regs, long ret)
{
	struct scratch_area *s = scratch_for(KESTREL_EVT_MUNMAP);

	if (!s)
		return 0;
	rb_mm_counters(s);
	rb_submit(s);
	return 0;
}

#define SYS_NSEC_PER_SEC 1000000000ULL

SEC("tp_btf/sys_exit")
int BPF_PROG(fill_NANOSLEEP, struct pt_regs *regs, long ret)
{
	struct scratch_area *s = scratch_for(KESTREL_EVT_NANOSLEEP);
	struct __kernel_timespec ts = {};

	if (!s)
		return 0;
	if (bpf_probe_read_user(&ts, sizeof(ts), (const void *)regs->di) == 0)
		rb_u64(s, (__u64)ts.tv_sec * SYS_NSEC_PER_SEC + (__u64)ts.tv_nsec);
	else
		rb_u64(s, 0);
	rb_submit(s);
	return 0;
}

/* SETVAL from <linux/sem.h>, which BPF programs do not include. */
#define SYS_SEMCTL_SETVAL 16

SEC("tp_btf/sys_exit")
int BPF_PROG(fill_SEMCTL, struct pt_regs *regs, long ret)
{
	struct scratch_area *s = scratch_for(KESTREL_EVT_SEMCTL);

	if (!s)
		return 0;
	rb_u32(s, (int)regs->dx == SYS_SEMCTL_SETVAL ? (__u32)regs->r10 : 0);
	rb_submit(s);
	return 0;
}

/* struct sembuf of <linux/sem.h> (not in the kernel's BTF). */
struct sys_sembuf {
	__u16 sem_num;
	__s16 sem_op;
	__s16 sem_flg;
};

SEC("tp_btf/sys_exit")
int BPF_PROG(fill_SEMOP, struct pt_regs *regs, long ret)
{
	struct scratch_area *s = scratch_for(KESTREL_EVT_SEMOP);
	struct sys_sembuf ops[2] = {};
	__u32 nsops = (__u32)regs->dx;

	if (!s)
		return 0;
	if (ret == 0 && regs->si && nsops > 0)
		bpf_probe_read_user(ops, nsops == 1 ? sizeof(ops[0]) : sizeof(ops),
				    (const void *)regs->si);
	for (int i = 0; i < 2; i++) {
		rb_u32(s, ops[i].sem_num);
		rb_u32(s, (__u32)(__s32)ops[i].sem_op);
		rb_u32(s, (__u16)ops[i].sem_flg);
	}
	rb_submit(s);
	return 0;
}

/* process_vm_readv/writev: the local iovecs (second and third arguments). */
static __always_inline int fill_process_vm(__u16 type, struct pt_regs *regs, long ret)
{
	struct scratch_area *s = scratch_for(type);

	if (!s)
		return 0;
	rb_iovec_size_and_data(s, (const struct iovec *)regs->si, (int)regs->dx, ret);
	rb_submit(s);
	return 0;
}

SEC("tp_btf/sys_exit")
int BPF_PROG(fill_PROCESS_VM_READV, struct pt_regs *regs, long ret)
{
	return fill_process_vm(KESTREL_EVT_PROCESS_VM_READV, regs, ret);
}

SEC("tp_btf/sys_exit")
int BPF_PROG(fill_PROCESS_VM_WRITEV, struct pt_regs *regs, long ret)
{
	return fill_process_vm(KESTREL_EVT_PROCESS_VM_WRITEV, regs, ret);
}
