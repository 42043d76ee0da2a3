/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KESTREL_BPF_COUNTERS_H
#define KESTREL_BPF_COUNTERS_H

#include "maps.h"

/* Counters are bumped with atomic adds: under a preemptible kernel two
 * programs can interleave on one CPU, and the accounting must stay exact. */
#define counter_inc(field) __sync_fetch_and_add(&(field), 1)

static __always_inline struct kestrel_cpu_counters *this_cpu_counters(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&cpu_counters, &zero);
}

#endif /* KESTREL_BPF_COUNTERS_H */
