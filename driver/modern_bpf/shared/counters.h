/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Per-CPU accounting kept by the probe. Every record the probe decides to
 * emit ends in exactly one of these counters, so
 *   records_written + drops_* == records attempted
 * holds at all times and nothing is lost silently.
 */
#ifndef KESTREL_SHARED_COUNTERS_H
#define KESTREL_SHARED_COUNTERS_H

#include "kernel_types.h"

struct kestrel_cpu_counters {
	__u64 records_written;	   /* committed into a ring */
	__u64 drops_ring_full;	   /* ring had no room */
	__u64 drops_too_large;	   /* record above KESTREL_MAX_RECORD_BYTES */
	__u64 drops_no_ring;	   /* no ring mapped for this CPU */
	__u64 drops_settings_busy; /* settings could not be read untorn */
	__u64 drop_markers;	   /* markers written; not records_written */
	__u64 drops_sampling;	   /* left out by dropping mode */
	/* Diagnostic, outside the sum above: a settings copy passed the
	 * seqlock with mismatched stamps (counted also as settings busy).
	 * Nonzero means the seqlock is broken. */
	__u64 settings_torn_reads;
};

/* Every drop, whatever the cause: records attempted = records_written +
 * this. One sum, so a new cause reaches every total. */
static inline __u64 kestrel_counters_dropped(const struct kestrel_cpu_counters *c)
{
	return c->drops_ring_full + c->drops_too_large + c->drops_no_ring +
	       c->drops_settings_busy + c->drops_sampling;
}

#endif /* KESTREL_SHARED_COUNTERS_H */
