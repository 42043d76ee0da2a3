// `kestrel run`'s stats line: events, what the probe dropped and why,
// alerts by priority, and each output channel's counters.
#ifndef KESTREL_AGENT_PIPELINE_STATS_LINE_H_
#define KESTREL_AGENT_PIPELINE_STATS_LINE_H_

#include <string>
#include <vector>

#include "agent/outputs/alert_outputs.h"
#include "agent/pipeline/pipeline.h"
#include "engine/state/thread_table.h"
#include "libpman.h"

namespace kestrel::agent {

// One line (no newline):
//   events E (R/s), dropped D (ring full a, too large b, no ring c,
//   settings busy d, sampling e), alerts A (Critical 1, Warning 2), outputs:
//   stdout sent s failed f dropped d, file sent s failed f (write error: No
//   space left on device f) dropped d (queue full d), ..., rate-limited r;
//   threads T (evicted V)
// A channel's failures and drops are named by cause when there are any.
// `probe` is null for a replay (drops are then what the file's drop
// markers say); `rate` is events per second over the interval, < 0 for
// none.
std::string FormatRunStats(const RunCounters& counters, const pman_stats* probe, double rate,
                           const std::vector<outputs::AlertOutputs::ChannelStats>& channels,
                           uint64_t rate_limited, const engine::ThreadTable& threads);

}  // namespace kestrel::agent

#endif  // KESTREL_AGENT_PIPELINE_STATS_LINE_H_
