// Summing the probe's per-CPU counters, in one place so a new counter is
// added to every total at once.
#ifndef KESTREL_LIBPMAN_COUNTER_SUM_H_
#define KESTREL_LIBPMAN_COUNTER_SUM_H_

#include "shared/counters.h"

namespace kestrel::pman {

inline void AddCounters(kestrel_cpu_counters& total, const kestrel_cpu_counters& c) {
  total.records_written += c.records_written;
  total.drops_ring_full += c.drops_ring_full;
  total.drops_too_large += c.drops_too_large;
  total.drops_no_ring += c.drops_no_ring;
  total.drops_settings_busy += c.drops_settings_busy;
  total.drop_markers += c.drop_markers;
  total.drops_sampling += c.drops_sampling;
  total.settings_torn_reads += c.settings_torn_reads;
}

}  // namespace kestrel::pman

#endif  // KESTREL_LIBPMAN_COUNTER_SUM_H_
