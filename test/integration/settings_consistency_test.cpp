// The seqlock, proven in the real probe: user space republishes the settings
// millions of times while getppid fires on both CPUs. Every publish writes
// the same fresh stamp at both ends of the slot; the probe counts every copy
// that passed its sequence check with the two stamps disagreeing.
#include <gtest/gtest.h>
#include <sys/syscall.h>

#include <atomic>
#include <iostream>
#include <thread>

#include "probe_session.h"
#include "storage_modes.h"

namespace kestrel::testing {
namespace {

class SettingsConsistencyTest : public ::testing::TestWithParam<uint32_t> {};

TEST_P(SettingsConsistencyTest, ProbeNeverActsOnATornUpdate) {
  KESTREL_REQUIRE_BPF_PRIVILEGES();
  KESTREL_REQUIRE_TWO_CPUS();
  auto session = ProbeSession::Start({.syscalls = {SYS_getppid}, .settings_storage = GetParam()});
  ASSERT_NE(session, nullptr);
  pman_handle* h = session->handle();
  kestrel_capture_settings s{};
  ASSERT_EQ(pman_get_capture_settings(h, &s), 0);
  const pman_stats before = session->Stats();

  std::atomic<bool> stop{false};
  std::atomic<uint64_t> calls[2] = {0, 0};
  auto reader = [&](int cpu) {
    ScopedCpuPin pin(cpu);
    while (!stop.load(std::memory_order_relaxed)) {
      TaggedGetppid(0);
      calls[cpu].fetch_add(1, std::memory_order_relaxed);
    }
  };
  std::thread a(reader, 0), b(reader, 1);
  constexpr uint64_t kUpdates = 2'000'000;
  constexpr uint64_t kMinProbeReads = 1'000'000;
  uint64_t updates = 0;
  int update_rc = 0;
  // Whatever the scheduler does, keep writing until both sides did plenty.
  // A failed update ends the loop; the threads are joined before it fails
  // the test (an ASSERT here would leave them joinable: std::terminate).
  while (update_rc == 0 && (updates < kUpdates || calls[0] + calls[1] < kMinProbeReads)) {
    ++updates;
    // Fields the filter does not look at, so every call stays interesting.
    s.snaplen = static_cast<uint32_t>(updates % (KESTREL_MAX_SNAPLEN + 1));
    s.fullcapture_port_lo = s.fullcapture_port_hi = static_cast<uint16_t>(updates % 65535 + 1);
    update_rc = pman_update_capture_settings(h, &s);
  }
  stop = true;
  a.join();
  b.join();
  ASSERT_EQ(update_rc, 0) << "update " << updates;
  const pman_stats after = session->Stats();

  const uint64_t made = calls[0] + calls[1];
  const kestrel_cpu_counters& t = after.total;
  const kestrel_cpu_counters& t0 = before.total;
  const uint64_t busy = t.drops_settings_busy - t0.drops_settings_busy;
  // Every call read the settings: it ended written, dropped, or busy.
  const uint64_t probe_reads =
      (t.records_written - t0.records_written) + (t.drops_ring_full - t0.drops_ring_full) + busy;
  RecordProperty("updates", std::to_string(updates));
  RecordProperty("probe_reads", std::to_string(probe_reads));
  RecordProperty("settings_busy", std::to_string(busy));
  EXPECT_GE(probe_reads, made);
  EXPECT_GE(made, kMinProbeReads);
  EXPECT_EQ(t.settings_torn_reads, 0u);
  std::cout << "updates " << updates << ", syscalls " << made << " (cpu0 " << calls[0] << ", cpu1 "
            << calls[1] << "), settings busy " << busy << ", torn " << t.settings_torn_reads
            << "\n";
}

KESTREL_INSTANTIATE_STORAGE_MODES(SettingsConsistencyTest);

}  // namespace
}  // namespace kestrel::testing
