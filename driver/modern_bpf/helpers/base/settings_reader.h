/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Reads one consistent copy of the capture settings (see
 * shared/capture_settings.h for the protocol).
 */
#ifndef KESTREL_BPF_SETTINGS_READER_H
#define KESTREL_BPF_SETTINGS_READER_H

#include "counters.h"
#include "maps.h"

/* Writers flip slots far less often than a copy takes, so one retry almost
 * never happens and four are plenty; past that the caller drops the record
 * rather than act on a torn struct. */
#define KESTREL_SETTINGS_READ_TRIES 4

#define kestrel_compiler_barrier() asm volatile("" ::: "memory")

/* A copy that passed the sequence check yet has mismatched stamps would be
 * a torn read the seqlock let through: count it and use nothing from it. */
static __noinline void count_torn_read(void)
{
	struct kestrel_cpu_counters *counters = this_cpu_counters();

	if (counters)
		counter_inc(counters->settings_torn_reads);
}

#define KESTREL_SETTINGS_SCALAR_BYTES                                                              \
	__builtin_offsetof(struct kestrel_capture_settings, target_tgids)
#define KESTREL_SETTINGS_LIST_BYTES                                                                \
	(sizeof(struct kestrel_capture_settings) - KESTREL_SETTINGS_SCALAR_BYTES)

_Static_assert(KESTREL_SETTINGS_LIST_BYTES == KESTREL_MAX_TARGET_TGIDS * sizeof(__u32) +
						  KESTREL_MAX_TARGET_CGROUPS * sizeof(__u64),
	       "the target lists close the settings: nothing after them goes uncopied");

/* x86_64 keeps loads in program order, so a compiler barrier is enough to
 * order the sequence reads around the copy. */
static __always_inline bool read_capture_settings(struct kestrel_capture_settings *out)
{
	struct kestrel_control_block *cb = control_block();

	if (!cb)
		return false;
	for (int i = 0; i < KESTREL_SETTINGS_READ_TRIES; i++) {
		__u32 idx = *(volatile __u32 *)&cb->settings_store.active & 1;
		struct kestrel_settings_slot *slot = &cb->settings_store.slots[idx];
		__u32 seq = *(volatile __u32 *)&slot->seq;

		kestrel_compiler_barrier();
		if (seq & 1)
			continue;
		__u64 head = *(volatile __u64 *)&slot->body.stamp_head;
		kestrel_compiler_barrier();
		/* The target lists only when one is set (copying them on every
		 * event cost a captured getppid ~3 ns); else they read as 0,
		 * stored rather than left unset, as clang lowers a value it may
		 * read uninitialized to whatever register, which the verifier
		 * refuses. */
		__builtin_memcpy(out, &slot->body.settings, KESTREL_SETTINGS_SCALAR_BYTES);
		if (out->target_lists_set)
			__builtin_memcpy(out->target_tgids, slot->body.settings.target_tgids,
					 KESTREL_SETTINGS_LIST_BYTES);
		else
			__builtin_memset(out->target_tgids, 0, KESTREL_SETTINGS_LIST_BYTES);
		kestrel_compiler_barrier();
		__u64 tail = *(volatile __u64 *)&slot->body.stamp_tail;
		kestrel_compiler_barrier();
		if (*(volatile __u32 *)&slot->seq != seq)
			continue;
		if (head != tail) {
			count_torn_read();
			return false;
		}
		return true;
	}
	return false;
}

#endif /* KESTREL_BPF_SETTINGS_READER_H */
