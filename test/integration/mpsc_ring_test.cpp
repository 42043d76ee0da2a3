// The MPSC ring that CPUs sharing a ring write (shared/mpsc_ring_format.h),
// with the real probe: records that cross its chunk boundaries and lap it
// come back whole and in order, its doorbell wakes a waiting reader; and
// the BPF ring buffers PMAN_OPT_RINGBUF selects do the same.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/decode/generic_syscall.h"
#include "engine/decode/record_view.h"
#include "probe_session.h"
#include "ring_kinds.h"
#include "shared/event_types.h"
#include "shared/mpsc_ring_format.h"

namespace kestrel::testing {
namespace {

constexpr uint64_t kChunkBytes = uint64_t{1} << KESTREL_MPSC_MAX_CHUNK_SHIFT;
constexpr uint64_t kTwoChunks = 2 * kChunkBytes;

// One shared ring of two chunks capturing `syscall`.
std::unique_ptr<ProbeSession> StartTwoChunkRing(uint32_t syscall) {
  auto session = ProbeSession::Start(
      {.buffer_bytes = kTwoChunks, .cpus_per_buffer = 0, .syscalls = {syscall}});
  if (session != nullptr) {
    EXPECT_EQ(session->Stats().n_rings, 1u);
  }
  return session;
}

// A 2-chunk ring lapped six times: every chunk boundary forces a pad record
// and every lap writes over the last one's headers, whose stamps the reader
// must tell from the new ones. Each batch is drained before the next, so
// nothing may be lost and every tag comes back once, in order.
TEST(MpscRingTest, RecordsCrossChunksAndLapTheRingIntact) {
  KESTREL_REQUIRE_BPF_PRIVILEGES();
  auto session = StartTwoChunkRing(SYS_getppid);
  ASSERT_NE(session, nullptr);

  const uint64_t record_space = KESTREL_MPSC_ROUND(sizeof(kestrel_generic_record));
  const uint64_t calls = 6 * kTwoChunks / record_space;
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

// The same for records built in the scratch area and copied into the ring
// (sink_output's dynptr path): failed openat calls whose path lengths cycle
// through 0-199 characters, so records of every size meet the chunk ends.
TEST(MpscRingTest, CopiedRecordsOfEverySizeCrossChunksIntact) {
  KESTREL_REQUIRE_BPF_PRIVILEGES();
  auto session = StartTwoChunkRing(SYS_openat);
  ASSERT_NE(session, nullptr);
  auto path_of = [](uint64_t i) {
    return absl::StrCat("/nonexistent-kestrel-mpsc/", std::string(i % 200, 'p'), "-", i);
  };
  constexpr uint64_t kCalls = 30000;  // ~7 MiB of records: three laps and more
  constexpr uint64_t kBatch = 2000;
  uint64_t next_expected = 0;
  for (uint64_t first = 0; first < kCalls; first += kBatch) {
    for (uint64_t i = first; i < first + kBatch; ++i) {
      ASSERT_EQ(openat(AT_FDCWD, path_of(i).c_str(), O_RDONLY), -1);
    }
    for (const OwnedRecord& r : session->DrainRecords(CurrentTid())) {
      if (r.header().type != KESTREL_EVT_OPENAT) continue;
      const engine::DecodedEvent e = r.Event();
      ASSERT_EQ(e.String("path"), path_of(next_expected)) << "record " << next_expected;
      ASSERT_EQ(e.String("name"), path_of(next_expected)) << "record " << next_expected;
      ASSERT_EQ(e.Int("fd"), -ENOENT);
      ++next_expected;
    }
  }
  EXPECT_EQ(next_expected, kCalls);
  EXPECT_EQ(session->Stats().total.drops_ring_full, 0u);
}

// Records larger than a block (4 KiB here) take a block of their own, a
// multiple of the block size, between the small records of the same CPU:
// writes of 3-15 KiB with their data captured, each followed by a getppid.
// Every byte comes back, in order, across chunk ends and laps of the ring.
TEST(MpscRingTest, RecordsLargerThanABlockComeBackWhole) {
  KESTREL_REQUIRE_BPF_PRIVILEGES();
  auto session = ProbeSession::Start(
      {.buffer_bytes = kTwoChunks, .cpus_per_buffer = 0, .syscalls = {SYS_write, SYS_getppid}});
  ASSERT_NE(session, nullptr);
  SetDataCapture(session->handle(), {.io_data = true, .snaplen = 16384});
  const int null_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
  ASSERT_GE(null_fd, 0);
  auto size_of = [](uint64_t i) { return 3000 + (i * 997) % 12000; };
  constexpr uint64_t kCalls = 600;  // ~5 MiB of records: more than two laps
  constexpr uint64_t kBatch = 50;
  uint64_t writes = 0, getppids = 0;
  for (uint64_t first = 0; first < kCalls; first += kBatch) {
    for (uint64_t i = first; i < first + kBatch; ++i) {
      const std::string data(size_of(i), static_cast<char>('a' + i % 26));
      ASSERT_EQ(write(null_fd, data.data(), data.size()), static_cast<ssize_t>(data.size()));
      TaggedGetppid(i);
    }
    for (const OwnedRecord& r : session->DrainRecords(CurrentTid())) {
      if (r.header().type == KESTREL_EVT_GENERIC_SYSCALL) {
        absl::StatusOr<engine::RecordView> view =
            engine::RecordView::Parse(&r.header(), r.header().len);
        ASSERT_TRUE(view.ok()) << view.status();
        absl::StatusOr<engine::GenericSyscall> call = engine::DecodeGenericSyscall(*view);
        ASSERT_TRUE(call.ok()) << call.status();
        ASSERT_EQ(call->args[0], getppids) << "getppid " << getppids;
        ++getppids;
        continue;
      }
      ASSERT_EQ(r.header().type, KESTREL_EVT_WRITE);
      const std::string expected(size_of(writes), static_cast<char>('a' + writes % 26));
      ASSERT_EQ(r.Event().String("data"), expected) << "write " << writes;
      ++writes;
    }
  }
  close(null_fd);
  EXPECT_EQ(writes, kCalls);
  EXPECT_EQ(getppids, kCalls);
  EXPECT_EQ(session->Stats().total.drops_ring_full, 0u);
}

// A ring shared by CPUs is reserved a block at a time (mpsc_ring_format.h,
// "Blocks"). CPU 0 writes three records and goes quiet, its block left
// open; CPU 1 then writes eight rings' worth, drained batch by batch. The
// reader must close CPU 0's block: until it does, no space from that block
// on goes back, and CPU 1 would find the ring full after one ring's worth.
TEST(MpscRingTest, AQuietCpuDoesNotHoldTheSharedRing) {
  KESTREL_REQUIRE_BPF_PRIVILEGES();
  KESTREL_REQUIRE_TWO_CPUS();
  constexpr uint64_t kRingBytes = 64 << 10;
  auto session = ProbeSession::Start(
      {.buffer_bytes = kRingBytes, .cpus_per_buffer = 0, .syscalls = {SYS_getppid}});
  ASSERT_NE(session, nullptr);
  uint32_t quiet_tid = 0;
  std::thread([&] {
    ScopedCpuPin pin(0);
    quiet_tid = CurrentTid();
    for (uint64_t tag = 0; tag < 3; ++tag) TaggedGetppid(tag);
  }).join();
  EXPECT_EQ(session->DrainThread(quiet_tid).size(), 3u);

  ScopedCpuPin pin(1);
  constexpr uint64_t kBatch = 100;  // a fifth of the ring
  const uint64_t calls =
      8 * kRingBytes / KESTREL_MPSC_ROUND(sizeof(kestrel_generic_record)) / kBatch * kBatch;
  uint64_t next_expected = 0;
  for (uint64_t first = 0; first < calls; first += kBatch) {
    for (uint64_t tag = first; tag < first + kBatch; ++tag) TaggedGetppid(tag);
    for (const Captured& c : session->DrainThread(CurrentTid())) {
      ASSERT_EQ(c.call.args[0], next_expected) << "a record was lost, repeated or reordered";
      ++next_expected;
    }
  }
  EXPECT_EQ(next_expected, calls);
  EXPECT_EQ(session->Stats().total.drops_ring_full, 0u);
}

// Every ring kind and topology (ring_kinds.h).
class RingKindTest : public ::testing::TestWithParam<RingKind> {};

// The probe wakes a reader sleeping in pman_wait_for_events once the backlog
// crosses a quarter of the ring: through the doorbell of an MPSC ring,
// through the ring itself for a BPF ring buffer. Once drained, the wait
// times out again rather than reporting a stale wakeup forever.
TEST_P(RingKindTest, WaitReturnsOnceTheBacklogCrossesTheThreshold) {
  KESTREL_REQUIRE_BPF_PRIVILEGES();
  constexpr uint64_t kRingBytes = 64 << 10;
  auto session = ProbeSession::Start({.buffer_bytes = kRingBytes,
                                      .cpus_per_buffer = GetParam().cpus_per_buffer,
                                      .syscalls = {SYS_getppid},
                                      .flags = GetParam().flags});
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

// Two threads on the two CPUs, read while they run: every record of each
// comes back once, in its order, whatever the ring kind and topology.
TEST_P(RingKindTest, TwoCpusDeliverEveryRecordInOrder) {
  KESTREL_REQUIRE_BPF_PRIVILEGES();
  KESTREL_REQUIRE_TWO_CPUS();
  auto session = ProbeSession::Start({.buffer_bytes = 8 << 20,
                                      .cpus_per_buffer = GetParam().cpus_per_buffer,
                                      .syscalls = {SYS_getppid},
                                      .flags = GetParam().flags});
  ASSERT_NE(session, nullptr);
  constexpr uint64_t kCalls = 20000;
  uint32_t tids[2] = {};
  std::vector<std::thread> threads;
  for (int cpu = 0; cpu < 2; ++cpu) {
    threads.emplace_back([&, cpu] {
      ScopedCpuPin pin(cpu);
      tids[cpu] = CurrentTid();
      for (uint64_t tag = 0; tag < kCalls; ++tag) TaggedGetppid(tag);
    });
  }
  for (std::thread& t : threads) t.join();
  std::map<uint32_t, uint64_t> next_tag;
  for (const std::vector<uint8_t>& raw : session->DrainRaw()) {
    const auto* h = reinterpret_cast<const kestrel_record_header*>(raw.data());
    if (h->tid != tids[0] && h->tid != tids[1]) continue;
    absl::StatusOr<engine::RecordView> view = engine::RecordView::Parse(raw.data(), raw.size());
    ASSERT_TRUE(view.ok()) << view.status();
    absl::StatusOr<engine::GenericSyscall> call = engine::DecodeGenericSyscall(*view);
    ASSERT_TRUE(call.ok()) << call.status();
    ASSERT_EQ(call->args[0], next_tag[h->tid]++) << "tid " << h->tid;
  }
  EXPECT_EQ(next_tag[tids[0]], kCalls);
  EXPECT_EQ(next_tag[tids[1]], kCalls);
  EXPECT_EQ(session->Stats().total.drops_ring_full, 0u);
}

KESTREL_INSTANTIATE_RING_KINDS(RingKindTest);

}  // namespace
}  // namespace kestrel::testing
