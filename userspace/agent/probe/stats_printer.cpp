#include "agent/probe/stats_printer.h"

#include <vector>

#include "absl/strings/str_format.h"

namespace kestrel::agent {
namespace {

std::string Topology(const pman_stats& s) {
  if (s.cpus_per_buffer == 0) return "one ring shared by all CPUs";
  if (s.cpus_per_buffer == 1) return "one ring per CPU";
  return absl::StrFormat("one ring per %u CPUs", s.cpus_per_buffer);
}

}  // namespace

std::string FormatStats(pman_handle* handle, const ReadTally& tally) {
  std::string out;
  pman_stats stats{};
  if (pman_get_stats(handle, &stats, nullptr, 0) != 0) return out;
  std::vector<kestrel_cpu_counters> per_cpu(stats.n_cpus);
  if (pman_get_stats(handle, &stats, per_cpu.data(), per_cpu.size()) != 0) return out;
  const kestrel_cpu_counters& t = stats.total;
  const uint64_t dropped = kestrel_counters_dropped(&t);
  absl::StrAppendFormat(&out,
                        "--- kestrel stats: %u ring(s) x %u bytes, %s; %u of %u CPUs have a ring; "
                        "%u bytes locked\n",
                        stats.n_rings, stats.ring_bytes, Topology(stats), stats.n_cpus_with_ring,
                        stats.n_cpus, stats.locked_bytes);
  absl::StrAppendFormat(
      &out,
      "records attempted %u: consumed %u (undecodable %u), left unread %u, dropped %u "
      "(ring full %u, too large %u, no ring %u, settings busy %u, sampling %u); "
      "written %u, drop markers %u\n",
      t.records_written + dropped, tally.consumed, tally.undecodable, tally.left_unread, dropped,
      t.drops_ring_full, t.drops_too_large, t.drops_no_ring, t.drops_settings_busy,
      t.drops_sampling, t.records_written, t.drop_markers);
  if (tally.consumed + tally.left_unread != t.records_written) {
    absl::StrAppendFormat(&out,
                          "WARNING: consumed + left unread = %u but the probe wrote %u records: "
                          "the accounting above does not add up\n",
                          tally.consumed + tally.left_unread, t.records_written);
  }
  if (t.settings_torn_reads != 0) {
    absl::StrAppendFormat(&out, "WARNING: %u torn settings reads detected (seqlock failure)\n",
                          t.settings_torn_reads);
  }
  for (uint32_t cpu = 0; cpu < stats.n_cpus; ++cpu) {
    const kestrel_cpu_counters& c = per_cpu[cpu];
    absl::StrAppendFormat(
        &out, "  cpu %u: written %u, ring full %u, too large %u, no ring %u, markers %u\n", cpu,
        c.records_written, c.drops_ring_full, c.drops_too_large, c.drops_no_ring, c.drop_markers);
  }
  return out;
}

void PrintStats(pman_handle* handle, const ReadTally& tally, std::FILE* out) {
  std::fputs(FormatStats(handle, tally).c_str(), out);
}

}  // namespace kestrel::agent
