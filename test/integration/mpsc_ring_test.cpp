// The MPSC ring that CPUs sharing a ring write (shared/mpsc_ring_format.h),
// with the real probe: records that cross its chunk boundaries and lap it
// come back whole and in order, and its doorbell wakes a waiting reader.
#include <gtest/gtest.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "probe_session.h"
#include "shared/event_types.h"
#include "shared/mpsc_ring_format.h"

namespace kestrel::testing {
namespace {

constexpr uint64_t kChunkBytes = uint64_t{1} << KESTREL_MPSC_MAX_CHUNK_SHIFT;

// A 2-chunk ring lapped six times: every chunk boundary forces a pad record
// and every lap reuses bytes the reader zeroed. Each batch is drained before
// the next, so nothing may be lost and every tag comes back once, in order.
TEST(MpscRingTest, RecordsCrossChunksAndLapTheRingIntact) {
  KESTREL_REQUIRE_BPF_PRIVILEGES();
  constexpr uint64_t kRingBytes = 2 * kChunkBytes;
  auto session = ProbeSession::Start(
      {.buffer_bytes = kRingBytes, .cpus_per_buffer = 0, .syscalls = {SYS_getppid}});
  ASSERT_NE(session, nullptr);
  ASSERT_EQ(session->Stats().n_rings, 1u);

  const uint64_t record_space = KESTREL_MPSC_ROUND(sizeof(kestrel_generic_record));
  const uint64_t calls = 6 * kRingBytes / record_space;
  constexpr uint64_t kBatch = 4000;
  uint64_t next_expected = 0;
  for (uint64_t first = 0; first < calls; first += kBatch) {
    for (uint64_t tag = first; tag < std::min(calls, first + kBatch); ++tag) TaggedGetppid(tag);
    for (const Captured& c : session->DrainThread(CurrentTid())) {
      ASSERT_EQ(c.call.args[0], next_expected) << "a record was lost, repeated or reordered";
      ASSERT_EQ(c.call.id, static_cast<uint32_t>(SYS_getppid));
      ASSERT_EQ(c.header.len, sizeof(kestrel_generic_record));
      ++next_expected;
    }
  }
  EXPECT_EQ(next_expected, calls);
  const pman_stats stats = session->Stats();
  EXPECT_EQ(stats.total.drops_ring_full, 0u);
  EXPECT_EQ(stats.total.drops_too_large, 0u);
}

// The probe wakes a reader sleeping in pman_wait_for_events once the backlog
// crosses a quarter of the ring: through the doorbell for a shared (MPSC)
// ring, through the ring itself per CPU. Once drained, the wait times out
// again rather than reporting a stale wakeup forever.
class RingWakeupTest : public ::testing::TestWithParam<uint32_t> {};

TEST_P(RingWakeupTest, WaitReturnsOnceTheBacklogCrossesTheThreshold) {
  KESTREL_REQUIRE_BPF_PRIVILEGES();
  constexpr uint64_t kRingBytes = 64 << 10;
  auto session = ProbeSession::Start(
      {.buffer_bytes = kRingBytes, .cpus_per_buffer = GetParam(), .syscalls = {SYS_getppid}});
  ASSERT_NE(session, nullptr);
  ASSERT_EQ(pman_wait_for_events(session->handle(), 0), 0) << "ready before any record";
  {
    // One CPU sees the whole backlog grow; half the ring is twice the
    // threshold and leaves room for every record.
    ScopedCpuPin pin(0);
    const uint64_t calls = kRingBytes / 2 / KESTREL_MPSC_ROUND(sizeof(kestrel_generic_record));
    for (uint64_t tag = 0; tag < calls; ++tag) TaggedGetppid(tag);
  }
  // A missed wakeup would sleep the full minute and return 0.
  EXPECT_EQ(pman_wait_for_events(session->handle(), 60'000), 1);
  EXPECT_GT(session->DrainAll(), 0u);
  EXPECT_EQ(pman_wait_for_events(session->handle(), 0), 0) << "still ready after a full drain";
  EXPECT_EQ(session->Stats().total.drops_ring_full, 0u);
}

INSTANTIATE_TEST_SUITE_P(SharedAndPerCpu, RingWakeupTest, ::testing::Values(0u, 1u),
                         [](const ::testing::TestParamInfo<uint32_t>& info) {
                           return info.param == 0 ? std::string("SharedMpscRing")
                                                  : std::string("PerCpuRingBuffers");
                         });

}  // namespace
}  // namespace kestrel::testing
