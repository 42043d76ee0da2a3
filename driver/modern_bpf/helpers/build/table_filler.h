/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Writes an event's table-driven parameters (those whose source is a syscall
 * argument or the return value), expanded from the schema at compile time,
 * so such parameters need no hand-written per-event code in the probe.
 */
#ifndef KESTREL_BPF_TABLE_FILLER_H
#define KESTREL_BPF_TABLE_FILLER_H

#include "vmlinux.h"

#include <bpf/bpf_helpers.h>

#include "record_builder.h"
#include "schema_tables.h"

/* What a source reads: an argument of a 64-bit syscall, in the ABI's order,
 * from the registers saved at entry (still intact at exit), or the return
 * value. `source` is a constant in every use, so this is one load. */
static __always_inline __u64 source_value(const struct pt_regs *regs, long ret, __u8 source)
{
	switch (source) {
	case KPS_ARG0:
		return regs->di;
	case KPS_ARG1:
		return regs->si;
	case KPS_ARG2:
		return regs->dx;
	case KPS_ARG3:
		return regs->r10;
	case KPS_ARG4:
		return regs->r8;
	case KPS_ARG5:
		return regs->r9;
	case KPS_RET:
		return ret;
	}
	return 0;
}

static __always_inline void read_syscall_args(const struct pt_regs *regs, __u64 args[6])
{
	args[0] = source_value(regs, 0, KPS_ARG0);
	args[1] = source_value(regs, 0, KPS_ARG1);
	args[2] = source_value(regs, 0, KPS_ARG2);
	args[3] = source_value(regs, 0, KPS_ARG3);
	args[4] = source_value(regs, 0, KPS_ARG4);
	args[5] = source_value(regs, 0, KPS_ARG5);
}

/* A fixed-size parameter's value from its register. fds and pids are C
 * ints: the kernel reads the low 32 bits of the register, and so do we. */
static __always_inline __u64 register_param_value(__u8 type, __u64 v)
{
	return type == KPT_FD || type == KPT_PID ? (__u64)(__s64)(__s32)v : v;
}

static __always_inline void fill_one_param(struct scratch_area *s, __u8 type, __u64 v)
{
	switch (kestrel_param_fixed_size(type)) {
	case 8:
		rb_u64(s, register_param_value(type, v));
		return;
	case 4:
		rb_u32(s, (__u32)v);
		return;
	}
	switch (type) {
	case KPT_PATH:
		rb_user_str(s, (const void *)v, KESTREL_MAX_PATH);
		break;
	case KPT_CHARBUF:
		rb_user_str(s, (const void *)v, s->snaplen + 1);
		break;
	default:
		/* Buffers, sockaddrs and lists need a length or a walk: they
		 * are KPS_CUSTOM by construction. */
		rb_empty(s);
		break;
	}
}

/* One case per event, its parameters written in schema order: with type and
 * source constants, each is a register read and a store, where walking the
 * tables at run time cost a callback and a table load per parameter. The
 * schema lists KPS_CUSTOM parameters last, so skipping them here leaves the
 * record at the first one, for the event's filler. */
#define TABLE_PARAM_WRITE(name, type, source, flag_set)                                            \
	if ((source) < KPS_CUSTOM)                                                                 \
		fill_one_param(s, type, source_value(regs, ret, source));
#define TABLE_EVENT_CASE(name, syscall, params)                                                    \
	case KESTREL_EVT_##name:                                                                   \
		params(TABLE_PARAM_WRITE) break;

/* Begins the record for `type` and writes its table-driven parameters.
 * Returns false when the event has custom parameters still to write. */
static __always_inline bool fill_table_params(struct scratch_area *s, __u16 type,
					      struct pt_regs *regs, long ret,
					      const struct kestrel_capture_settings *settings)
{
	__u32 ev = KESTREL_EVENT_INDEX(type);
	__u32 n;

	if (ev >= KESTREL_N_SPECIFIC_EVENTS)
		return true;
	n = event_nparams[ev];
	rb_begin(s, type, n, settings);
	switch (type) {
		KESTREL_SYSCALL_EVENTS(TABLE_EVENT_CASE)
	default:
		break;
	}
	return s->next_param >= n;
}

#undef TABLE_EVENT_CASE
#undef TABLE_PARAM_WRITE

#endif /* KESTREL_BPF_TABLE_FILLER_H */
