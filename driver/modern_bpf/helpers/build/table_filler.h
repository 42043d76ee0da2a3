/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Writes an event's table-driven parameters (those whose source is a syscall
 * argument or the return value) by walking the schema tables, so such
 * parameters need no per-event code in the probe.
 */
#ifndef KESTREL_BPF_TABLE_FILLER_H
#define KESTREL_BPF_TABLE_FILLER_H

#include "vmlinux.h"

#include <bpf/bpf_helpers.h>

#include "record_builder.h"
#include "schema_tables.h"

/* The six arguments of a 64-bit syscall, in the ABI's order, from the
 * registers saved at entry: they are still intact at exit. */
static __always_inline void read_syscall_args(const struct pt_regs *regs, __u64 args[6])
{
	args[0] = regs->di;
	args[1] = regs->si;
	args[2] = regs->dx;
	args[3] = regs->r10;
	args[4] = regs->r8;
	args[5] = regs->r9;
}

/* What each table-driven source reads, indexed by enum kestrel_param_source
 * masked with 7: the six arguments, the return value, and a zero in the
 * KPS_CUSTOM slot, which no table-driven parameter names. */
#define SOURCE_VALUES 8

static __always_inline void read_source_values(const struct pt_regs *regs, long ret,
					       __u64 values[SOURCE_VALUES])
{
	read_syscall_args(regs, values);
	values[KPS_RET] = ret;
	values[KPS_CUSTOM] = 0;
}

struct table_fill_ctx {
	struct scratch_area *s;
	__u32 event_index;
	__u64 values[SOURCE_VALUES];
};

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

static long fill_table_param(__u32 i, void *data)
{
	struct table_fill_ctx *ctx = data;
	const struct param_desc *d;
	__u32 ev = ctx->event_index;

	if (ev >= KESTREL_N_SPECIFIC_EVENTS || i >= KESTREL_MAX_EVENT_PARAMS)
		return 1;
	d = &event_params[ev][i];
	if (d->source >= KPS_CUSTOM || d->type == KPT_NONE)
		return 1; /* custom parameters come last: stop here */
	fill_one_param(ctx->s, d->type, ctx->values[d->source & 7]);
	return 0;
}

/* Begins the record for `type` and writes its table-driven parameters.
 * Returns false when the event has custom parameters still to write. */
static __always_inline bool fill_table_params(struct scratch_area *s, __u16 type,
					      struct pt_regs *regs, long ret,
					      const struct kestrel_capture_settings *settings)
{
	struct table_fill_ctx ctx = {.s = s, .event_index = KESTREL_EVENT_INDEX(type)};
	__u32 n;

	if (ctx.event_index >= KESTREL_N_SPECIFIC_EVENTS)
		return true;
	n = event_nparams[ctx.event_index];
	rb_begin(s, type, n, settings);
	read_source_values(regs, ret, ctx.values);
	bpf_loop(KESTREL_MAX_EVENT_PARAMS, fill_table_param, &ctx, 0);
	return s->next_param >= n;
}

#endif /* KESTREL_BPF_TABLE_FILLER_H */
