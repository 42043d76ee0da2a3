/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Every per-syscall table is indexed by x86_64 syscall ids. A compat (ia32)
 * syscall arrives with its own number, which names another call in the
 * 64-bit table, so it is mapped to its 64-bit twin before any table is
 * read: one toggle of a 64-bit id then covers both ABIs.
 */
#ifndef KESTREL_BPF_SYSCALL_ID_H
#define KESTREL_BPF_SYSCALL_ID_H

#include "vmlinux.h"

#include <bpf/bpf_helpers.h>

#include "../../shared/syscall_ids.h"
#include "../../shared/syscall_table_ia32.h"
#include "../../shared/syscall_table_x86_64.h"

/* Cleared by user space at load when the kernel refuses ia32 syscalls
 * (built without ia32 emulation, or with it off at boot): the verifier then
 * drops the compat test from every syscall's fast path. */
__weak const volatile bool ia32_syscalls_possible = true;

/* thread_info.status bit set while a task runs an ia32 syscall (a #define
 * in arch/x86, so it is not in BTF). */
#define KESTREL_TS_COMPAT 0x0002

/* Fails every `id < KESTREL_SYSCALL_TABLE_SIZE` check: the id of an ia32
 * syscall with no 64-bit twin. */
#define KESTREL_NO_SYSCALL KESTREL_SYSCALL_TABLE_SIZE

/* x86_64 id + 1 per ia32 id; 0 = no twin. */
#define KESTREL_IA32_TWIN_ENTRY(ia32_id, name) [ia32_id] = KESTREL_NR_##name + 1,
static const __u16 ia32_twin[KESTREL_IA32_SYSCALL_TABLE_SIZE] = {
    KESTREL_SYSCALLS_IA32(KESTREL_IA32_TWIN_ENTRY)};
#undef KESTREL_IA32_TWIN_ENTRY

static __always_inline bool in_ia32_syscall(void)
{
	if (!ia32_syscalls_possible)
		return false;
	return bpf_get_current_task_btf()->thread_info.status & KESTREL_TS_COMPAT;
}

/* The x86_64 id of the syscall `regs` is in. */
static __always_inline __u64 native_syscall_id(__u64 id, bool ia32)
{
	__u16 twin;

	if (!ia32)
		return id;
	if (id >= KESTREL_IA32_SYSCALL_TABLE_SIZE)
		return KESTREL_NO_SYSCALL;
	twin = ia32_twin[id];
	return twin ? twin - 1 : KESTREL_NO_SYSCALL;
}

#endif /* KESTREL_BPF_SYSCALL_ID_H */
