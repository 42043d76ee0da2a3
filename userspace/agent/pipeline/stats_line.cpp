#include "agent/pipeline/stats_line.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "engine/rules/priority.h"

namespace kestrel::agent {
namespace {

// " (write error: No space left on device 3, timeout 1)", or nothing when
// there is no cause to name.
std::string Causes(const std::vector<outputs::AlertOutputs::CauseCount>& causes) {
  std::string text;
  for (const auto& c : causes) {
    absl::StrAppend(&text, text.empty() ? " (" : ", ", c.cause, " ", c.count);
  }
  if (!text.empty()) text.push_back(')');
  return text;
}

}  // namespace

std::string FormatRunStats(const RunCounters& counters, const pman_stats* probe, double rate,
                           const std::vector<outputs::AlertOutputs::ChannelStats>& channels,
                           uint64_t rate_limited, const engine::ThreadTable& threads) {
  std::string line = absl::StrCat("events ", counters.events);
  if (rate >= 0) absl::StrAppend(&line, absl::StrFormat(" (%.1f/s)", rate));
  if (probe != nullptr) {
    const kestrel_cpu_counters& t = probe->total;
    absl::StrAppend(&line, ", dropped ", kestrel_counters_dropped(&t), " (ring full ",
                    t.drops_ring_full, ", too large ", t.drops_too_large, ", no ring ",
                    t.drops_no_ring, ", settings busy ", t.drops_settings_busy, ", sampling ",
                    t.drops_sampling, "), drop markers ", counters.drop_markers, " for ",
                    counters.lost, " records");
  } else {
    absl::StrAppend(&line, ", dropped ", counters.lost, " (as the file's drop markers say)");
  }
  absl::StrAppend(&line, ", alerts ", counters.AlertsTotal());
  std::string by_priority;
  for (size_t p = 0; p < counters.alerts.size(); ++p) {
    if (counters.alerts[p] == 0) continue;
    absl::StrAppend(
        &by_priority, by_priority.empty() ? "" : ", ",
        std::string(engine::rules::PriorityName(static_cast<engine::rules::Priority>(p))), " ",
        counters.alerts[p]);
  }
  if (!by_priority.empty()) absl::StrAppend(&line, " (", by_priority, ")");
  absl::StrAppend(&line, "; outputs:");
  for (const auto& c : channels) {
    absl::StrAppend(&line, " ", c.name, " sent ", c.sent, " failed ", c.failed,
                    Causes(c.failed_by_cause), " dropped ", c.dropped, Causes(c.dropped_by_cause));
    if (c.delivers_later) {
      absl::StrAppend(&line, " in flight ", c.in_flight, " waiting ", c.waiting);
    }
    line.push_back(',');
  }
  absl::StrAppend(&line, " rate-limited ", rate_limited);
  if (counters.undecodable > 0) absl::StrAppend(&line, "; undecodable ", counters.undecodable);
  // The table's size shows whether state stays bounded over a long run.
  absl::StrAppend(&line, "; threads ", threads.size(), " (evicted ", threads.evictions(), ")");
  return line;
}

}  // namespace kestrel::agent
