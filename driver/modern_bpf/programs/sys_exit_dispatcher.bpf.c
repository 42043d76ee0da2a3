// SPDX-License-Identifier: GPL-2.0-only
/*
 * The one hook every syscall of the machine pays for. It leaves after a
 * single byte load unless the syscall is interesting, and then emits one
 * record per syscall with everything read at exit, so no sys_enter hook is
 * needed for the generic record.
 */
#include "vmlinux.h"

#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "../helpers/dispatch/capture_filter.h"
#include "../helpers/dispatch/custom_filler_call.h"
#include "../helpers/base/counters.h"
#include "../helpers/base/global_func.h"
#include "../helpers/build/drop_markers.h"
#include "../helpers/base/maps.h"
#include "../helpers/base/record_header.h"
#include "../helpers/dispatch/sampling.h"
#include "../helpers/dispatch/settings_changed.h"
#include "../helpers/base/settings_reader.h"
#include "../helpers/build/table_filler.h"
#include "../helpers/sink/sink.h"
#include "../helpers/build/register_record.h"
#include "../helpers/base/syscall_id.h"
#include "../shared/event_types.h"

_Static_assert(KESTREL_GENERIC_NPARAMS % 4 == 0, "param_len is set four at a time");

static __always_inline void emit_generic(struct pt_regs *regs, long ret, __u64 id, bool ia32,
					 __u64 pid_tgid, struct kestrel_cpu_counters *counters)
{
	__u32 cpu = bpf_get_smp_processor_id();
	struct kestrel_generic_record *r;
	void *ring;

	ring = ring_for_record(cpu, counters);
	if (!ring)
		return;
	count_written_ahead(counters);
	r = sink_reserve(ring, sizeof(*r));
	if (!r) {
		take_back_written(counters);
		count_loss(&counters->drops_ring_full);
		return;
	}
	fill_record_header(&r->hdr, KESTREL_EVT_GENERIC_SYSCALL, KESTREL_GENERIC_NPARAMS,
			   sizeof(*r), cpu, pid_tgid);
	set_u64_param_lens(r->param_len, KESTREL_GENERIC_NPARAMS);
	r->syscall_id = id;
	/* The user registers saved at entry are still intact at exit; only ax
	 * now holds the return value. */
	if (ia32) {
		r->hdr.flags |= KESTREL_RECORD_IA32;
		r->args[0] = (__u32)regs->bx;
		r->args[1] = (__u32)regs->cx;
		r->args[2] = (__u32)regs->dx;
		r->args[3] = (__u32)regs->si;
		r->args[4] = (__u32)regs->di;
		r->args[5] = (__u32)regs->bp;
	} else {
		read_syscall_args(regs, r->args);
	}
	r->ret = ret;
	sink_submit(ring, r, sizeof(*r));
}

/* The two specific-event paths below are global functions, each verified
 * once on its own. Inline in capture_syscall, their switches (one case per
 * event) made it a subprogram of some 18,000 instructions whose stack
 * liveness the verifier recomputed at the end of each case's path: about
 * 200 passes, most of the dispatcher's verification time. Here they read
 * the settings through a pointer to memory, not the caller's stack, and
 * keep little of their own. */

/* A specific event: table-driven parameters here, then the event's custom
 * filler by tail call when it has custom parameters. */
KESTREL_GLOBAL_FUNC int emit_specific(unsigned long long *ctx KESTREL_ARG_CTX, __u16 type,
				      const struct kestrel_capture_settings *settings)
{
	struct pt_regs *regs = (struct pt_regs *)ctx[0];
	long ret = (long)ctx[1];
	struct kestrel_cpu_counters *counters;
	struct scratch_area *s = scratch_area();

	if (!settings)
		return 0;
	if (!s) {
		counters = this_cpu_counters();
		if (counters)
			counter_inc(counters->drops_no_ring);
		return 0;
	}
	if (!fill_table_params(s, type, regs, ret, settings)) {
		call_custom_filler(ctx, type);
		/* Only reached when the event's filler is not loaded. */
		s->flags |= KESTREL_RECORD_PARAMS_MISSING;
		rb_pad_missing(s);
	}
	rb_submit(s);
	return 0;
}

/* A register-only event (register_record.h) of record length `len`. */
KESTREL_GLOBAL_FUNC int emit_register_event(unsigned long long *ctx KESTREL_ARG_CTX, __u16 type,
					    __u32 len, __u64 pid_tgid)
{
	struct kestrel_cpu_counters *counters = this_cpu_counters();

	if (counters)
		emit_register_record((struct pt_regs *)ctx[0], (long)ctx[1], type, len, pid_tgid,
				     counters);
	return 0;
}

/* Out of line so that the filter in kestrel_sys_exit needs no stack and no
 * callee-saved registers: uninteresting syscalls skip their save/restore. */
static __noinline int capture_syscall(unsigned long long *ctx, __u64 id)
{
	/* Read again from ctx rather than passed in: every value the filter
	 * keeps across its calls costs it a callee-saved register or a spill. */
	struct pt_regs *regs = (struct pt_regs *)ctx[0];
	long ret = (long)ctx[1];
	bool ia32 = in_ia32_syscall();
	struct kestrel_capture_settings settings;
	struct kestrel_cpu_counters *counters;
	__u64 pid_tgid;

	counters = capture_begin(&settings);
	if (!counters)
		return 0;
	pid_tgid = bpf_get_current_pid_tgid();
	if (!wanted(&settings, pid_tgid >> 32, ret) || !sink_wants_current())
		return 0;
	if (!sample_keep(&settings, id, counters))
		return 0;
	/* Specific events read their arguments with the 64-bit ABI: an ia32
	 * call gets the generic record, whose arguments follow its own ABI. */
	if (syscall_event[id] && !ia32) {
		__u16 type = syscall_event[id];
		__u32 ev = KESTREL_EVENT_INDEX(type);
		__u32 register_len = ev < KESTREL_N_SPECIFIC_EVENTS ? event_register_len[ev] : 0;

		if (register_len)
			emit_register_event(ctx, type, register_len, pid_tgid);
		else
			emit_specific(ctx, type, &settings);
		return 0;
	}
	emit_generic(regs, ret, id, ia32, pid_tgid, counters);
	return 0;
}

SEC("tp_btf/sys_exit")
int BPF_PROG(kestrel_sys_exit, struct pt_regs *regs, long ret)
{
	struct kestrel_control_block *cb = control_block();
	__u64 id = native_syscall_id(regs->orig_ax, in_ia32_syscall());

	if (!cb)
		return 0;
	report_settings_change(cb);
	if (id >= KESTREL_SYSCALL_TABLE_SIZE || !cb->interesting_syscalls[id])
		return 0;
	return capture_syscall(ctx, id);
}

char LICENSE[] SEC("license") = "GPL";
