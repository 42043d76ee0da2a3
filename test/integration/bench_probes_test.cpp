// The probes `kestrel bench` measures must record exactly the syscalls the
// bench issues, or its per-event costs and loss accounting mean nothing.
#include <bpf/libbpf.h>
#include <gtest/gtest.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <thread>

#include "bench/floor_probe.h"
#include "bench/probe_under_test.h"
#include "bench/syscall_loop.h"
#include "probe_session.h"

namespace kestrel::cli::bench {
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

}  // namespace
}  // namespace kestrel::cli::bench
