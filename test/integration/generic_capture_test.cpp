// The generic record, end to end: real syscalls from this thread, captured by
// the real probe, decoded and checked value by value.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <thread>

#include "engine/decode/record_view.h"
#include "probe_session.h"
#include "ring_kinds.h"
#include "shared/event_types.h"

namespace kestrel::testing {
namespace {

uint64_t U(int64_t v) { return static_cast<uint64_t>(v); }

class TempFile {
 public:
  TempFile() {
    char path[] = "/tmp/kestrel-test-XXXXXX";
    const int fd = mkstemp(path);
    EXPECT_GE(fd, 0);
    close(fd);
    path_ = path;
  }
  ~TempFile() { unlink(path_.c_str()); }
  const char* path() const { return path_.c_str(); }

 private:
  std::string path_;
};

uint64_t BootTimeNs() {
  timespec now{};
  clock_gettime(CLOCK_BOOTTIME, &now);
  return static_cast<uint64_t>(now.tv_sec) * 1'000'000'000ULL + static_cast<uint64_t>(now.tv_nsec);
}

// fadvise64 and getppid have no specific event (Falco has none for either),
// so they stay generic records.
TEST(GenericCaptureTest, KnownSyscallsDecodeExactly) {
  KESTREL_REQUIRE_BPF_PRIVILEGES();
  TempFile file;
  const int fd = open(file.path(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  auto session = ProbeSession::Start({.syscalls = {SYS_getppid, SYS_fadvise64}});
  ASSERT_NE(session, nullptr);

  const uint64_t before_ns = BootTimeNs();
  const long ppid = syscall(SYS_getppid, 11, 22, 33, 44, 55, 66);
  const long advise_ok = syscall(SYS_fadvise64, static_cast<long>(fd), 5L, 7L,
                                 static_cast<long>(POSIX_FADV_SEQUENTIAL));
  const long advise_bad = syscall(SYS_fadvise64, -1L, 0L, 0L, static_cast<long>(POSIX_FADV_RANDOM));
  const int advise_errno = errno;
  close(fd);

  const std::vector<Captured> got = session->DrainThread(CurrentTid());
  ASSERT_EQ(got.size(), 3u);

  EXPECT_EQ(got[0].call.id, static_cast<uint32_t>(SYS_getppid));
  EXPECT_EQ(got[0].call.args, (std::array<uint64_t, 6>{11, 22, 33, 44, 55, 66}));
  EXPECT_EQ(got[0].call.ret, ppid);
  EXPECT_EQ(got[0].call.ret, getppid());

  EXPECT_EQ(got[1].call.id, static_cast<uint32_t>(SYS_fadvise64));
  EXPECT_EQ(got[1].call.args[0], U(fd));
  EXPECT_EQ(got[1].call.args[1], 5u);
  EXPECT_EQ(got[1].call.args[2], 7u);
  EXPECT_EQ(got[1].call.args[3], U(POSIX_FADV_SEQUENTIAL));
  EXPECT_EQ(got[1].call.ret, advise_ok);
  EXPECT_EQ(got[1].call.ret, 0);

  EXPECT_EQ(got[2].call.id, static_cast<uint32_t>(SYS_fadvise64));
  EXPECT_EQ(got[2].call.args[0], U(-1));
  EXPECT_EQ(got[2].call.args[3], U(POSIX_FADV_RANDOM));
  EXPECT_EQ(advise_bad, -1);
  EXPECT_EQ(got[2].call.ret, -advise_errno);
  EXPECT_EQ(got[2].call.ret, -EBADF);

  const pman_stats stats = session->Stats();
  for (size_t i = 0; i < got.size(); ++i) {
    const kestrel_record_header& h = got[i].header;
    EXPECT_EQ(h.type, KESTREL_EVT_GENERIC_SYSCALL);
    EXPECT_EQ(h.version, KESTREL_SCHEMA_VERSION);
    EXPECT_EQ(h.len, sizeof(kestrel_generic_record));
    EXPECT_EQ(h.tid, CurrentTid());
    EXPECT_EQ(h.tgid, static_cast<uint32_t>(getpid()));
    EXPECT_LT(h.cpu, stats.n_cpus);
    EXPECT_EQ(h.flags, 0);
    if (i > 0) {
      EXPECT_GT(h.ts_ns, got[i - 1].header.ts_ns);
    }
  }
  // Boot-time clock: the records were stamped between our two readings of
  // it, however long the machine took.
  const uint64_t after_ns = BootTimeNs();
  EXPECT_GE(got[0].header.ts_ns, before_ns);
  EXPECT_LE(got[2].header.ts_ns, after_ns);
}

TEST(GenericCaptureTest, TogglingTheTableTakesEffectOnTheNextSyscall) {
  KESTREL_REQUIRE_BPF_PRIVILEGES();
  auto session = ProbeSession::Start({.syscalls = {SYS_getppid}});
  ASSERT_NE(session, nullptr);

  for (uint64_t tag = 0; tag < 3; ++tag) TaggedGetppid(tag);
  ASSERT_EQ(pman_mark_single_64bit_syscall(session->handle(), SYS_getppid, false), 0);
  for (uint64_t tag = 100; tag < 103; ++tag) TaggedGetppid(tag);
  ASSERT_EQ(pman_mark_single_64bit_syscall(session->handle(), SYS_getppid, true), 0);
  for (uint64_t tag = 200; tag < 202; ++tag) TaggedGetppid(tag);

  std::vector<uint64_t> tags;
  for (const Captured& c : session->DrainThread(CurrentTid())) tags.push_back(c.call.args[0]);
  EXPECT_EQ(tags, (std::vector<uint64_t>{0, 1, 2, 200, 201}));
}

TEST(GenericCaptureTest, EnforcedSetReplacesTheWholeTable) {
  KESTREL_REQUIRE_BPF_PRIVILEGES();
  auto session = ProbeSession::Start({.syscalls = {SYS_getppid}});
  ASSERT_NE(session, nullptr);
  std::vector<uint8_t> set(pman_syscall_table_size(), 0);
  set[SYS_fadvise64] = 1;
  ASSERT_EQ(pman_enforce_sc_set(session->handle(), set.data(), set.size()), 0);
  TaggedGetppid(7);
  syscall(SYS_fadvise64, -1L, 0L, 0L, 0L);
  const std::vector<Captured> got = session->DrainThread(CurrentTid());
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].call.id, static_cast<uint32_t>(SYS_fadvise64));
}

TEST(GenericCaptureTest, DropFailedSkipsOnlyFailedCalls) {
  KESTREL_REQUIRE_BPF_PRIVILEGES();
  auto session = ProbeSession::Start({.syscalls = {SYS_getppid, SYS_fadvise64}});
  ASSERT_NE(session, nullptr);
  kestrel_capture_settings s{};
  ASSERT_EQ(pman_get_capture_settings(session->handle(), &s), 0);
  s.drop_failed = 1;
  ASSERT_EQ(pman_update_capture_settings(session->handle(), &s), 0);

  syscall(SYS_fadvise64, -1L, 0L, 0L, 0L);
  TaggedGetppid(5);
  const std::vector<Captured> got = session->DrainThread(CurrentTid());
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].call.id, static_cast<uint32_t>(SYS_getppid));
  EXPECT_EQ(got[0].call.args[0], 5u);
}

TEST(GenericCaptureTest, TargetAndOwnTgidFiltersHold) {
  KESTREL_REQUIRE_BPF_PRIVILEGES();
  auto session = ProbeSession::Start({.syscalls = {SYS_getppid}});
  ASSERT_NE(session, nullptr);
  kestrel_capture_settings s{};
  ASSERT_EQ(pman_get_capture_settings(session->handle(), &s), 0);

  s.target_tgid = 1;  // init: not us
  ASSERT_EQ(pman_update_capture_settings(session->handle(), &s), 0);
  TaggedGetppid(1);
  s.target_tgid = 0;
  s.own_tgid = static_cast<uint32_t>(getpid());
  ASSERT_EQ(pman_update_capture_settings(session->handle(), &s), 0);
  TaggedGetppid(2);
  s.own_tgid = 0;
  ASSERT_EQ(pman_update_capture_settings(session->handle(), &s), 0);
  TaggedGetppid(3);

  const std::vector<Captured> got = session->DrainThread(CurrentTid());
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].call.args[0], 3u);
}

TEST(GenericCaptureTest, TimestampsStrictlyIncreasePerThread) {
  KESTREL_REQUIRE_BPF_PRIVILEGES();
  auto session = ProbeSession::Start({.buffer_bytes = 4 << 20, .syscalls = {SYS_getppid}});
  ASSERT_NE(session, nullptr);
  constexpr uint64_t kCalls = 5000;
  uint32_t tids[2] = {};
  auto worker = [&](int index) {
    tids[index] = CurrentTid();
    for (uint64_t tag = 0; tag < kCalls; ++tag) TaggedGetppid(tag);
  };
  std::thread a(worker, 0), b(worker, 1);
  a.join();
  b.join();

  std::map<uint32_t, std::vector<Captured>> by_tid;
  for (;;) {
    void* record = nullptr;
    int16_t ring = -1;
    ASSERT_EQ(pman_consume_first_event(session->handle(), &record, &ring), 0);
    if (record == nullptr) break;
    auto view = engine::RecordView::Parse(record, KESTREL_MAX_RECORD_BYTES);
    ASSERT_TRUE(view.ok());
    by_tid[view->header().tid].push_back({view->header(), *engine::DecodeGenericSyscall(*view)});
  }
  for (uint32_t tid : tids) {
    const std::vector<Captured>& got = by_tid[tid];
    ASSERT_EQ(got.size(), kCalls) << "tid " << tid;
    for (uint64_t i = 0; i < kCalls; ++i) {
      EXPECT_EQ(got[i].call.args[0], i);
      if (i > 0) {
        ASSERT_GT(got[i].header.ts_ns, got[i - 1].header.ts_ns);
      }
    }
  }
  EXPECT_EQ(session->Stats().total.drops_ring_full, 0u);
}

// With a ring per CPU the consumer merges by timestamp: records drained after
// both pinned writers finish come out in global time order.
TEST(GenericCaptureTest, PerCpuRingsMergeInTimestampOrder) {
  KESTREL_REQUIRE_BPF_PRIVILEGES();
  KESTREL_REQUIRE_TWO_CPUS();
  auto session = ProbeSession::Start(
      {.buffer_bytes = 4 << 20, .cpus_per_buffer = 1, .syscalls = {SYS_getppid}});
  ASSERT_NE(session, nullptr);
  pman_stats stats = session->Stats();
  ASSERT_EQ(stats.n_rings, stats.n_cpus);
  auto pinned = [](int cpu) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    ASSERT_EQ(sched_setaffinity(0, sizeof(set), &set), 0);
    for (uint64_t tag = 0; tag < 3000; ++tag) TaggedGetppid(tag);
  };
  std::thread a(pinned, 0), b(pinned, 1);
  a.join();
  b.join();

  uint64_t n = 0, prev_ts = 0;
  std::set<int16_t> rings;
  for (;;) {
    void* record = nullptr;
    int16_t ring = -1;
    ASSERT_EQ(pman_consume_first_event(session->handle(), &record, &ring), 0);
    if (record == nullptr) break;
    const auto* h = static_cast<const kestrel_record_header*>(record);
    ASSERT_GE(h->ts_ns, prev_ts) << "record " << n;
    EXPECT_EQ(ring, static_cast<int16_t>(h->cpu)) << "a CPU wrote outside its own ring";
    prev_ts = h->ts_ns;
    rings.insert(ring);
    ++n;
  }
  EXPECT_EQ(n, 6000u);
  EXPECT_EQ(rings, (std::set<int16_t>{0, 1}));
}

// A burst into a one-page ring with no reader: every syscall is either read
// back or counted as dropped, and the ones read are the first ones.
class DropAccountingTest : public ::testing::TestWithParam<RingKind> {};

TEST_P(DropAccountingTest, ReceivedPlusDroppedEqualsSyscallsMade) {
  KESTREL_REQUIRE_BPF_PRIVILEGES();
  auto session = ProbeSession::Start({.buffer_bytes = 4096,
                                      .cpus_per_buffer = GetParam().cpus_per_buffer,
                                      .syscalls = {SYS_getppid},
                                      .flags = GetParam().flags});
  ASSERT_NE(session, nullptr);
  // Keep the burst on one CPU so the records fill one ring in call order.
  cpu_set_t set, old;
  sched_getaffinity(0, sizeof(old), &old);
  CPU_ZERO(&set);
  CPU_SET(0, &set);
  ASSERT_EQ(sched_setaffinity(0, sizeof(set), &set), 0);

  const pman_stats before = session->Stats();
  constexpr uint64_t kCalls = 20000;
  for (uint64_t tag = 0; tag < kCalls; ++tag) TaggedGetppid(tag);
  const pman_stats after = session->Stats();
  sched_setaffinity(0, sizeof(old), &old);

  const std::vector<Captured> got = session->DrainThread(CurrentTid());
  const uint64_t written = after.total.records_written - before.total.records_written;
  const uint64_t dropped = after.total.drops_ring_full - before.total.drops_ring_full;
  EXPECT_GT(got.size(), 0u);
  EXPECT_GT(dropped, 0u);
  EXPECT_EQ(written, got.size());
  EXPECT_EQ(got.size() + dropped, kCalls);
  for (size_t i = 0; i < got.size(); ++i) ASSERT_EQ(got[i].call.args[0], i);
}

KESTREL_INSTANTIATE_RING_KINDS(DropAccountingTest);

}  // namespace
}  // namespace kestrel::testing
