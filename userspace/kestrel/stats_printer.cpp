#include "stats_printer.h"

#include <vector>

#include "absl/strings/str_format.h"

namespace kestrel::cli {

void PrintStats(pman_handle* handle, uint64_t consumed, uint64_t undecodable, std::FILE* out) {
  pman_stats stats{};
  if (pman_get_stats(handle, &stats, nullptr, 0) != 0) return;
  std::vector<kestrel_cpu_counters> per_cpu(stats.n_cpus);
  if (pman_get_stats(handle, &stats, per_cpu.data(), per_cpu.size()) != 0) return;
  const kestrel_cpu_counters& t = stats.total;
  const uint64_t dropped = t.drops_ring_full + t.drops_too_large + t.drops_no_ring +
                           t.drops_settings_busy + t.drops_sampling;
  absl::FPrintF(out, "--- kestrel stats: %u ring(s) x %u bytes (%u bytes locked), %u CPUs\n",
                stats.n_rings, stats.ring_bytes, stats.n_rings * stats.ring_bytes, stats.n_cpus);
  absl::FPrintF(out,
                "records written %u, consumed %u (undecodable %u), dropped %u "
                "(ring full %u, too large %u, no ring %u, settings busy %u, sampling %u)\n",
                t.records_written, consumed, undecodable, dropped, t.drops_ring_full,
                t.drops_too_large, t.drops_no_ring, t.drops_settings_busy, t.drops_sampling);
  if (t.settings_torn_reads != 0) {
    absl::FPrintF(out, "WARNING: %u torn settings reads detected (seqlock failure)\n",
                  t.settings_torn_reads);
  }
  for (uint32_t cpu = 0; cpu < stats.n_cpus; ++cpu) {
    const kestrel_cpu_counters& c = per_cpu[cpu];
    absl::FPrintF(out, "  cpu %u: written %u, ring full %u, too large %u\n", cpu, c.records_written,
                  c.drops_ring_full, c.drops_too_large);
  }
}

}  // namespace kestrel::cli
