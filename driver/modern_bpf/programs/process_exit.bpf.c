// SPDX-License-Identifier: GPL-2.0-only
/*
 * PROCESS_EXIT: one record per exiting thread, from sched_process_exit,
 * which runs in the exiting task after do_exit stored its wait status.
 * Selected by marking exit or exit_group, which have no exit record of
 * their own (see shared/schema/process_events.h).
 */
#include "vmlinux.h"

#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "../helpers/dispatch/capture_filter.h"
#include "../helpers/base/counters.h"
#include "../helpers/build/record_builder.h"
#include "../helpers/base/settings_reader.h"
#include "../helpers/extract/reaper.h"
#include "../shared/syscall_ids.h"

/* Only the task is read: the tracepoint gained a group_dead argument in
 * 6.16, and a tp_btf program may not read arguments a kernel lacks. */
SEC("tp_btf/sched_process_exit")
int BPF_PROG(kestrel_sched_process_exit, struct task_struct *task)
{
	struct kestrel_capture_settings settings;
	struct kestrel_cpu_counters *counters;
	struct scratch_area *s;
	__s32 status;

	if (!syscall_is_interesting(KESTREL_NR_exit) &&
	    !syscall_is_interesting(KESTREL_NR_exit_group))
		return 0;
	counters = capture_begin(&settings);
	if (!counters)
		return 0;
	if (!wanted(&settings, bpf_get_current_pid_tgid() >> 32, 0))
		return 0;
	s = scratch_area();
	if (!s) {
		counter_inc(counters->drops_no_ring);
		return 0;
	}
	status = BPF_CORE_READ(task, exit_code);
	rb_begin(s, KESTREL_EVT_PROCESS_EXIT, KESTREL_NPARAMS_PROCESS_EXIT, &settings);
	rb_u64(s, (__s64)status);
	rb_u64(s, (status >> 8) & 0xff);
	/* Killed by a signal: the low 7 bits, neither 0 (exited) nor 0x7f
	 * (stopped). */
	rb_u32(s, (status & 0x7f) != 0x7f ? status & 0x7f : 0);
	rb_u32(s, (status & 0x80) != 0);
	rb_u64(s, (__s64)reaper_tid_of(task));
	rb_u32(s, BPF_CORE_READ(task, signal, live.counter) == 0);
	rb_submit(s);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
