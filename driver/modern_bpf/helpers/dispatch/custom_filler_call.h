/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The tail call from the dispatcher into an event's custom filler, one call
 * site per event with the event's slot as a constant.
 *
 * A tail call whose slot the verifier knows is patched by the JIT into a
 * direct jump (or a no-op while the slot is empty). One call site with the
 * slot in a register is an indirect jump instead, and with retpolines (this
 * machine's spectre_v2 mitigation) that costs a deliberately mispredicted
 * return on every captured openat, read or connect.
 */
#ifndef KESTREL_BPF_CUSTOM_FILLER_CALL_H
#define KESTREL_BPF_CUSTOM_FILLER_CALL_H

#include "vmlinux.h"

#include <bpf/bpf_helpers.h>

#include "../base/maps.h"
#include "../../shared/event_types.h"

/* bpf_tail_call with the slot as an immediate. Written in asm because
 * clang merges the identical calls of a switch's cases into one call fed
 * by a register, which is the indirect jump this file exists to avoid.
 * r1-r5 are clobbered as by any helper call; a call that returns found the
 * slot empty. */
#define KESTREL_TAIL_CALL_SLOT(ctx, map, slot)                                                     \
	do {                                                                                       \
		_Static_assert(__builtin_constant_p(slot), "the slot must be a constant");         \
		asm volatile("r1 = %[c]\n\t"                                                       \
			     "r2 = %[m]\n\t"                                                       \
			     "r3 = %[s]\n\t"                                                       \
			     "call 12\n\t" ::[c] "r"(ctx),                                         \
			     [m] "r"(map), [s] "i"(slot)                                           \
			     : "r0", "r1", "r2", "r3", "r4", "r5");                                \
	} while (0)

/* Nonzero (at compile time) when a parameter list has KPS_CUSTOM ones. */
#define CUSTOM_FILLER_PARAM(name, type, source, flag_set) || (source) == KPS_CUSTOM
#define CUSTOM_FILLER_CASE(name, syscall, params)                                                  \
	case KESTREL_EVT_##name:                                                                   \
		if (0 params(CUSTOM_FILLER_PARAM))                                                 \
			KESTREL_TAIL_CALL_SLOT(ctx, &custom_fillers,                               \
					       KESTREL_EVENT_INDEX(KESTREL_EVT_##name));           \
		break;

/* Continues event `type` in its custom filler. Returns only when the
 * event has no filler loaded. */
static __always_inline void call_custom_filler(void *ctx, __u16 type)
{
	switch (type) {
		KESTREL_SYSCALL_EVENTS(CUSTOM_FILLER_CASE)
	default:
		break;
	}
}

#undef CUSTOM_FILLER_CASE
#undef CUSTOM_FILLER_PARAM

#endif /* KESTREL_BPF_CUSTOM_FILLER_CALL_H */
