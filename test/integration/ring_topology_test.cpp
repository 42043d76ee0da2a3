// The topology libpman builds, as pman_get_stats reports it. (That each
// CPU's records arrive in its own ring is checked in generic_capture_test.)
#include <gtest/gtest.h>
#include <unistd.h>

#include "probe_session.h"

namespace kestrel::testing {
namespace {

pman_stats LoadAndReadStats(uint32_t cpus_per_buffer, uint64_t bytes, uint32_t flags = 0) {
  pman_options o;
  pman_default_options(&o);
  o.cpus_per_buffer = cpus_per_buffer;
  o.buffer_bytes = bytes;
  o.flags = flags;
  pman_handle* h = nullptr;
  pman_stats stats{};
  EXPECT_EQ(pman_init(&o, &h), 0);
  EXPECT_EQ(pman_open(h), 0);
  EXPECT_EQ(pman_load(h), 0);
  EXPECT_EQ(pman_get_stats(h, &stats, nullptr, 0), 0);
  pman_close(h);
  return stats;
}

uint32_t OnlineCpus() { return static_cast<uint32_t>(sysconf(_SC_NPROCESSORS_ONLN)); }

TEST(RingTopologyTest, StatsReportRingsBytesAndLockedMemory) {
  KESTREL_REQUIRE_BPF_PRIVILEGES();
  const long page = sysconf(_SC_PAGESIZE);
  for (uint32_t cpus_per_buffer : {0u, 1u}) {
    const pman_stats s = LoadAndReadStats(cpus_per_buffer, 1 << 20);
    const uint32_t want_rings = cpus_per_buffer == 0 || s.n_cpus == 1 ? 1 : s.n_cpus;
    EXPECT_EQ(s.n_rings, want_rings);
    EXPECT_EQ(s.ring_bytes, 1u << 20);
    EXPECT_EQ(s.cpus_per_buffer, s.n_rings == 1 ? 0u : 1u);
    EXPECT_EQ(s.n_cpus_with_ring, s.n_cpus);
    // The kernel charges the data pages plus a few pages of ring metadata.
    EXPECT_GE(s.locked_bytes, uint64_t{s.n_rings} << 20);
    EXPECT_LE(s.locked_bytes, s.n_rings * ((1u << 20) + 32 * page));
  }
}

TEST(RingTopologyTest, AutoIsTheDefaultAndResolves) {
  KESTREL_REQUIRE_BPF_PRIVILEGES();
  pman_options o;
  pman_default_options(&o);
  const pman_stats s = LoadAndReadStats(o.cpus_per_buffer, o.buffer_bytes);
  EXPECT_EQ(s.n_rings, (s.n_cpus + 1) / 2);
  EXPECT_EQ(s.ring_bytes, PMAN_DEFAULT_BUFFER_BYTES);
}

TEST(RingTopologyTest, OnlineOnlyGivesRingsToOnlineCpus) {
  KESTREL_REQUIRE_BPF_PRIVILEGES();
  const pman_stats s = LoadAndReadStats(1, 1 << 16, PMAN_OPT_ONLY_ONLINE_CPUS);
  EXPECT_EQ(s.n_cpus_with_ring, OnlineCpus());
  EXPECT_EQ(s.n_rings, OnlineCpus());
}

}  // namespace
}  // namespace kestrel::testing
