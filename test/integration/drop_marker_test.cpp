// Drop markers, end to end: two pinned threads burst into a one-page ring
// while this thread drains it. Every record is either read or counted as
// dropped, and every gap in a thread's tags is announced, exactly, by a
// marker from that thread's CPU just before the first record after it.
#include <gtest/gtest.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <map>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "engine/decode/drop_marker.h"
#include "engine/decode/generic_syscall.h"
#include "engine/decode/record_view.h"
#include "probe_session.h"
#include "stream_helpers.h"

namespace kestrel::testing {
namespace {

long TaggedGetppid(uint64_t tag) { return syscall(SYS_getppid, tag, 0, 0, 0, 0, 0); }

// What the reader saw of one producer CPU.
struct CpuStream {
  uint32_t tid = 0;
  uint64_t next_tag = 0;  // the tag the next event must carry
  uint64_t events = 0;
  uint64_t markers = 0;
  uint64_t lost_in_markers = 0;
  // A marker was seen and no event of this CPU yet. Two markers in a row
  // are legitimate: in a shared ring the other CPU may take the room between
  // a marker and the record after it.
  bool marker_pending = false;
};

class DropMarkerTest : public ::testing::TestWithParam<uint32_t> {
 protected:
  // Reads one record; returns false when the rings are empty.
  bool ReadOne(pman_handle* h, std::map<uint32_t, CpuStream>& by_cpu) {
    std::optional<engine::RecordView> view;
    if (!NextRecord(h, view)) return false;
    const uint32_t cpu = view->header().cpu;
    auto it = by_cpu.find(cpu);
    if (engine::IsDropMarker(*view)) {
      absl::StatusOr<engine::DropMarker> m = engine::DecodeDropMarker(*view);
      EXPECT_TRUE(m.ok()) << m.status();
      EXPECT_NE(it, by_cpu.end()) << "marker from cpu " << cpu << " that no producer used";
      if (!m.ok() || it == by_cpu.end()) return true;
      EXPECT_LE(m->first_loss_ns, m->last_loss_ns);
      EXPECT_LE(m->last_loss_ns, view->header().ts_ns);
      it->second.markers++;
      it->second.lost_in_markers += m->lost;
      it->second.next_tag += m->lost;
      it->second.marker_pending = true;
      return true;
    }
    absl::StatusOr<engine::GenericSyscall> call = engine::DecodeGenericSyscall(*view);
    EXPECT_TRUE(call.ok()) << call.status();
    if (!call.ok() || it == by_cpu.end() || view->header().tid != it->second.tid) return true;
    CpuStream& s = it->second;
    EXPECT_EQ(call->args[0], s.next_tag)
        << "cpu " << cpu << ": a gap not announced by a marker, or a wrong count";
    s.next_tag = call->args[0] + 1;
    s.events++;
    s.marker_pending = false;
    return true;
  }
};

TEST_P(DropMarkerTest, EveryGapIsAnnouncedWithItsExactSize) {
  KESTREL_REQUIRE_BPF_PRIVILEGES();
  KESTREL_REQUIRE_TWO_CPUS();
  auto session = ProbeSession::Start(
      {.buffer_bytes = 4096, .cpus_per_buffer = GetParam(), .syscalls = {SYS_getppid}});
  ASSERT_NE(session, nullptr);
  const pman_stats before = session->Stats();

  constexpr uint64_t kBurst = 30000;
  std::map<uint32_t, CpuStream> by_cpu;
  std::atomic<int> ready{0};
  std::atomic<bool> go{false}, finished_burst[2] = {false, false}, flush{false};
  std::vector<std::thread> producers;
  uint32_t tids[2] = {};
  // A producer that cannot pin itself goes through every handshake without
  // a syscall, so the reader never waits for it forever; the test fails
  // after the join.
  std::atomic<int> pin_failures{0};
  for (int cpu = 0; cpu < 2; ++cpu) {
    producers.emplace_back([&, cpu] {
      const bool pinned = PinToCpu(cpu);
      pin_failures += !pinned;
      tids[cpu] = CurrentTid();
      ready++;
      while (!go) sched_yield();
      for (uint64_t tag = 0; pinned && tag < kBurst; ++tag) TaggedGetppid(tag);
      finished_burst[cpu] = true;
      // After the reader has drained, one more record carries the marker
      // for losses at the very end of the burst.
      while (!flush) sched_yield();
      if (pinned) TaggedGetppid(kBurst);
    });
  }
  while (ready < 2) sched_yield();
  for (int cpu = 0; cpu < 2; ++cpu) by_cpu[cpu].tid = tids[cpu];
  go = true;
  while (!finished_burst[0] || !finished_burst[1]) ReadOne(session->handle(), by_cpu);
  while (ReadOne(session->handle(), by_cpu)) {
  }
  flush = true;
  for (std::thread& t : producers) t.join();
  ASSERT_EQ(pin_failures, 0);
  while (ReadOne(session->handle(), by_cpu)) {
  }
  const pman_stats after = session->Stats();

  const uint64_t dropped = after.total.drops_ring_full - before.total.drops_ring_full;
  const uint64_t written = after.total.records_written - before.total.records_written;
  uint64_t events = 0, lost_in_markers = 0, markers = 0;
  for (const auto& [cpu, s] : by_cpu) {
    EXPECT_EQ(s.next_tag, kBurst + 1) << "cpu " << cpu;
    EXPECT_FALSE(s.marker_pending) << "cpu " << cpu;
    events += s.events;
    lost_in_markers += s.lost_in_markers;
    markers += s.markers;
  }
  EXPECT_GT(dropped, 0u) << "the burst never filled the ring: the test proves nothing";
  EXPECT_EQ(events + dropped, 2 * (kBurst + 1));
  EXPECT_EQ(events, written);
  EXPECT_EQ(lost_in_markers, dropped);
  EXPECT_EQ(markers, after.total.drop_markers - before.total.drop_markers);
}

// No reader at all during the burst: the records that fit come first, then
// one marker with the exact number lost, then the next record.
TEST_P(DropMarkerTest, MarkerPrecedesTheFirstRecordAfterTheLoss) {
  KESTREL_REQUIRE_BPF_PRIVILEGES();
  auto session = ProbeSession::Start(
      {.buffer_bytes = 4096, .cpus_per_buffer = GetParam(), .syscalls = {SYS_getppid}});
  ASSERT_NE(session, nullptr);
  cpu_set_t old;
  sched_getaffinity(0, sizeof(old), &old);
  const bool pinned = PinToCpu(0);
  if (!pinned) sched_setaffinity(0, sizeof(old), &old);
  ASSERT_TRUE(pinned);
  constexpr uint64_t kCalls = 5000;
  for (uint64_t tag = 0; tag < kCalls; ++tag) TaggedGetppid(tag);
  const std::vector<Captured> fitted = session->DrainThread(CurrentTid());
  TaggedGetppid(kCalls);
  sched_setaffinity(0, sizeof(old), &old);

  ASSERT_GT(fitted.size(), 0u);
  ASSERT_LT(fitted.size(), kCalls);
  for (size_t i = 0; i < fitted.size(); ++i) ASSERT_EQ(fitted[i].call.args[0], i);

  // The stream after the drain: exactly a marker, then the flushing record.
  std::vector<engine::RecordView> rest;
  std::optional<engine::RecordView> view;
  while (NextRecord(session->handle(), view)) {
    // The view points into the ring: copy what we check before the next call.
    rest.push_back(*view);
    if (!engine::IsDropMarker(*view)) {
      absl::StatusOr<engine::GenericSyscall> call = engine::DecodeGenericSyscall(*view);
      ASSERT_TRUE(call.ok());
      EXPECT_EQ(call->args[0], kCalls);
      EXPECT_EQ(view->header().tid, CurrentTid());
      break;
    }
    absl::StatusOr<engine::DropMarker> m = engine::DecodeDropMarker(*view);
    ASSERT_TRUE(m.ok()) << m.status();
    EXPECT_EQ(m->cpu, 0u);
    EXPECT_EQ(m->lost, kCalls - fitted.size());
    EXPECT_EQ(m->lost_total, kCalls - fitted.size());
    EXPECT_LE(m->first_loss_ns, m->last_loss_ns);
    EXPECT_LT(fitted.back().header.ts_ns, m->first_loss_ns);
  }
  ASSERT_EQ(rest.size(), 2u);
  EXPECT_TRUE(engine::IsDropMarker(rest[0]));
  EXPECT_FALSE(engine::IsDropMarker(rest[1]));
  EXPECT_EQ(session->Stats().total.drop_markers, 1u);
}

INSTANTIATE_TEST_SUITE_P(Topologies, DropMarkerTest, ::testing::Values(0u, 1u), TopologyName);

}  // namespace
}  // namespace kestrel::testing
