// The probes `kestrel bench` measures must record exactly the syscalls the
// bench issues, or its per-event costs and loss accounting mean nothing.
#include <bpf/libbpf.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <string>
#include <thread>

#include "bench/floor_probe.h"
#include "bench/probe_under_test.h"
#include "bench/raw_ring_producer.h"
#include "bench/syscall_loop.h"
#include "internal/libpman_bench.h"
#include "probe_session.h"

namespace kestrel::bench {
namespace {

constexpr uint64_t kCalls = 5000;

TEST(BenchProbesTest, FloorRecordHookRecordsEveryCallOfItsThreadAndNothingElse) {
  KESTREL_REQUIRE_BPF_PRIVILEGES();
  absl::StatusOr<std::unique_ptr<FloorProbe>> floor = FloorProbe::Load();
  ASSERT_TRUE(floor.ok()) << floor.status();
  (*floor)->StartDrain({});

  // The recorded thread makes no syscall of its own between the attach and
  // the detach: it spins on flags around its getppid loop.
  std::atomic<uint32_t> tid{0};
  std::atomic<bool> go{false}, done{false}, may_exit{false};
  std::thread loop([&] {
    tid = static_cast<uint32_t>(syscall(SYS_gettid));
    while (!go) {
    }
    for (uint64_t i = 0; i < kCalls; ++i) syscall(SYS_getppid);
    done = true;
    while (!may_exit) {
    }
  });
  while (tid == 0) {
  }
  ASSERT_TRUE((*floor)->AttachRecordHook(tid).ok());
  go = true;
  while (!done) {
  }
  (*floor)->Detach();
  may_exit = true;
  loop.join();
  // Many syscalls of this thread: none of them may be recorded.
  for (int i = 0; i < 100; ++i) syscall(SYS_getppid);
  (*floor)->StopDrain();
  EXPECT_EQ((*floor)->consumed(), kCalls);
}

TEST(BenchProbesTest, ProbeUnderTestAccountsForEveryGetppidOfThisProcess) {
  KESTREL_REQUIRE_BPF_PRIVILEGES();
  absl::StatusOr<std::unique_ptr<ProbeUnderTest>> probe = ProbeUnderTest::Load(1, 1 << 20);
  ASSERT_TRUE(probe.ok()) << probe.status();
  ASSERT_TRUE((*probe)->Capture({kGetppidId}).ok());
  (*probe)->StartDrain({});
  ASSERT_TRUE((*probe)->Attach().ok());
  for (uint64_t i = 0; i < kCalls; ++i) syscall(SYS_getppid);
  ASSERT_TRUE((*probe)->Detach().ok());
  (*probe)->StopDrain();
  absl::StatusOr<kestrel_cpu_counters> totals = (*probe)->Totals();
  ASSERT_TRUE(totals.ok()) << totals.status();
  const uint64_t drops = AllDrops(*totals);
  // Besides the calls, the probe reports the setup's settings generation
  // once, in one settings_changed record, on the first syscall it sees.
  constexpr uint64_t kSettingsChangedRecords = 1;
  EXPECT_EQ((*probe)->consumed() + drops, kCalls + kSettingsChangedRecords);
  EXPECT_EQ(totals->records_written, (*probe)->consumed());
  EXPECT_EQ((*probe)->n_rings(), static_cast<uint32_t>(libbpf_num_possible_cpus()));
}

// The ceiling of `kestrel bench rings`, read through libpman's reader lent
// by internal/libpman_bench.h: every record its program writes is read.
TEST(BenchProbesTest, RawRingProducerRecordsAreAllReadThroughLibpmansReader) {
  KESTREL_REQUIRE_BPF_PRIVILEGES();
  constexpr uint32_t kBatch = 2;
  constexpr uint64_t kRingBytes = 1 << 20;  // room for every record: none is dropped
  for (const bool per_cpu : {false, true}) {
    SCOPED_TRACE(per_cpu ? "ring per CPU" : "shared ring");
    absl::StatusOr<std::unique_ptr<RawRingProducer>> producer =
        RawRingProducer::Start(per_cpu, kRingBytes, kBatch);
    ASSERT_TRUE(producer.ok()) << producer.status();
    for (uint64_t i = 0; i < kCalls; ++i) syscall(SYS_getppid);
    EXPECT_EQ((*producer)->Drain(), kCalls * kBatch);
    EXPECT_EQ((*producer)->Drain(), 0u);
    absl::StatusOr<uint64_t> dropped = (*producer)->Dropped();
    ASSERT_TRUE(dropped.ok()) << dropped.status();
    EXPECT_EQ(*dropped, 0u);
    const uint64_t rings = per_cpu ? libbpf_num_possible_cpus() : 1;
    EXPECT_GE((*producer)->memory_bytes(), rings * kRingBytes);
  }
}

TEST(BenchProbesTest, LentRingReaderRefusesWhatIsNotARing) {
  struct Log {
    std::string last;
    static void Fn(void* ctx, pman_log_level, const char* message) {
      static_cast<Log*>(ctx)->last = message;
    }
  } log;
  pman_bench_ring_reader* reader = nullptr;
  EXPECT_EQ(pman_bench_ring_reader_open(-1, 4096, Log::Fn, &log, &reader), -EINVAL);
  EXPECT_EQ(reader, nullptr);
  // A regular file cannot be mapped as a ring: the error has a message.
  const int fd = open("/dev/null", O_RDONLY);
  ASSERT_GE(fd, 0);
  EXPECT_LT(pman_bench_ring_reader_open(fd, 4096, Log::Fn, &log, &reader), 0);
  EXPECT_EQ(reader, nullptr);
  EXPECT_NE(log.last.find("mapping the ring"), std::string::npos) << log.last;
  uint64_t memlock = 0;
  EXPECT_LT(pman_bench_map_memlock_bytes(fd, Log::Fn, &log, &memlock), 0);
  EXPECT_NE(log.last.find("memlock"), std::string::npos) << log.last;
  close(fd);
  pman_bench_ring_reader_close(nullptr);  // a no-op, as documented
}

}  // namespace
}  // namespace kestrel::bench
