/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Where records go: a BPF ring buffer (ring_writer.h), or, when compiled
 * with KESTREL_SINK_RECORDER, a flight recorder's overwrite ring
 * (recorder_writer.h). Both provide the same calls:
 *   ring_for_this_cpu(cpu)            the sink of this CPU, or NULL
 *   sink_wants_current()              the sink's own filter (recorder: cgroup)
 *   sink_reserve(ring, size)          room for one record written in place
 *   sink_submit(ring, record, size)   publish what sink_reserve returned
 *   sink_output(ring, src, len)       copy a record built elsewhere
 * The sink stamps the record's ts_ns as it reserves room for it (the caller
 * leaves it alone), so a ring shared by CPUs holds its records in
 * timestamp order.
 * Probe code that emits records includes this header, never a sink directly.
 */
#ifndef KESTREL_BPF_SINK_H
#define KESTREL_BPF_SINK_H

#ifdef KESTREL_SINK_RECORDER
#include "recorder_writer.h"
#else
#include "ring_writer.h"
#endif

#endif /* KESTREL_BPF_SINK_H */
