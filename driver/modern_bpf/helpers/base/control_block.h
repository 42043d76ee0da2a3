/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The one way BPF code reaches the control block (shared/control_block.h).
 * The probe is compiled twice from the same sources:
 *  - default: the block is a .bss global. Its address is a constant of the
 *    program, so reaching it costs no instruction beyond the load.
 *  - KESTREL_CONTROL_IN_ARRAY: the block is the single value of a
 *    BPF_F_MMAPABLE array, reached by a lookup the verifier inlines (and a
 *    NULL check the program must still carry).
 * Callers fetch the pointer once per program and pass it down.
 */
#ifndef KESTREL_BPF_CONTROL_BLOCK_H
#define KESTREL_BPF_CONTROL_BLOCK_H

#include "vmlinux.h"

#include <bpf/bpf_helpers.h>

#include "../../shared/control_block.h"

#ifdef KESTREL_CONTROL_IN_ARRAY

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__uint(map_flags, BPF_F_MMAPABLE);
	__type(key, __u32);
	__type(value, struct kestrel_control_block);
} kestrel_control __weak SEC(".maps");

static __always_inline struct kestrel_control_block *control_block(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&kestrel_control, &zero);
}

#else

/* Defined by programs/control_block.bpf.c alone: a __weak definition in
 * every object would leave one unused copy per object in the linked .bss
 * (`bpftool gen object` keeps each object's section and resolves the name
 * to the first), while an extern makes the .bss exactly one block. */
#ifdef KESTREL_CONTROL_BLOCK_DEFINITION
struct kestrel_control_block kestrel_control_bss;
#else
extern struct kestrel_control_block kestrel_control_bss;
#endif

static __always_inline struct kestrel_control_block *control_block(void)
{
	return &kestrel_control_bss;
}

#endif /* KESTREL_CONTROL_IN_ARRAY */

/* For programs off the sys_exit fast path, which need nothing else of the
 * block. */
static __always_inline bool syscall_is_interesting(__u64 id)
{
	struct kestrel_control_block *cb = control_block();

	return cb && id < KESTREL_SYSCALL_TABLE_SIZE && cb->interesting_syscalls[id];
}

#endif /* KESTREL_BPF_CONTROL_BLOCK_H */
