// Stopping a capture under load: once pman_detach_and_settle returns no
// program of the probe runs any more, the counters are final, and the
// records read before plus those drained after it are exactly the records
// the probe wrote, while producers keep making captured syscalls.
#include <gtest/gtest.h>
#include <sys/syscall.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "probe_session.h"
#include "shared/event_types.h"
#include "stream_helpers.h"

namespace kestrel::testing {
namespace {

// Consumes one record; false when the rings are empty. Drop markers are
// not records_written and are left out of `records`.
bool TakeOne(pman_handle* h, uint64_t& records) {
  void* record = nullptr;
  int16_t ring = -1;
  if (pman_consume_first_event(h, &record, &ring) != 0 || record == nullptr) return false;
  records += static_cast<const kestrel_record_header*>(record)->type != KESTREL_EVT_DROP_MARKER;
  return true;
}

class ExitAccountingTest : public ::testing::TestWithParam<uint32_t> {};

TEST_P(ExitAccountingTest, ConsumedPlusLeftUnreadIsWrittenAfterSettling) {
  KESTREL_REQUIRE_BPF_PRIVILEGES();
  KESTREL_REQUIRE_TWO_CPUS();
  auto session = ProbeSession::Start(
      {.buffer_bytes = 4096, .cpus_per_buffer = GetParam(), .syscalls = {SYS_getppid}});
  ASSERT_NE(session, nullptr);
  pman_handle* h = session->handle();
  const pman_stats before = session->Stats();

  // Producers on both CPUs run through the settle and after it: stopping
  // must not depend on the syscalls stopping.
  std::atomic<bool> stop{false};
  std::atomic<int> pin_failures{0};
  std::atomic<uint64_t> calls{0};
  std::vector<std::thread> producers;
  for (int cpu = 0; cpu < 2; ++cpu) {
    producers.emplace_back([&, cpu] {
      if (!PinToCpu(cpu)) pin_failures++;
      for (uint64_t tag = 0; !stop; ++tag) {
        TaggedGetppid(tag);
        calls++;
      }
    });
  }
  uint64_t consumed = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (consumed < 20000 && std::chrono::steady_clock::now() < deadline) {
    if (!TakeOne(h, consumed)) pman_wait_for_events(h, 10);
  }
  EXPECT_GE(consumed, 20000u) << "the producers' records did not arrive";
  const int settle_rc = pman_detach_and_settle(h);
  const pman_stats settled = session->Stats();
  // A few thousand more syscalls after the settle, none of them counted.
  const uint64_t calls_at_settle = calls;
  while (calls < calls_at_settle + 5000) std::this_thread::yield();
  const pman_stats later = session->Stats();
  stop = true;
  for (std::thread& t : producers) t.join();
  ASSERT_EQ(pin_failures, 0);
  ASSERT_EQ(settle_rc, 0);

  uint64_t left = 0;
  while (TakeOne(h, left)) {
  }
  const uint64_t written = settled.total.records_written - before.total.records_written;
  const uint64_t dropped = settled.total.drops_ring_full - before.total.drops_ring_full;
  EXPECT_EQ(consumed + left, written);
  EXPECT_GT(dropped, 0u) << "the ring never filled: the test proves nothing";
  EXPECT_GT(left, 0u) << "nothing was left in the ring at the settle";
  EXPECT_EQ(later.total.records_written, settled.total.records_written);
  EXPECT_EQ(later.total.drops_ring_full, settled.total.drops_ring_full);
  EXPECT_EQ(later.total.drop_markers, settled.total.drop_markers);
}

INSTANTIATE_TEST_SUITE_P(Topologies, ExitAccountingTest, ::testing::Values(0u, 1u), TopologyName);

}  // namespace
}  // namespace kestrel::testing
