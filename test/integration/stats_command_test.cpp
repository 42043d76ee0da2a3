// `kestrel stats` end to end: it loads the real probe, runs, and reports the
// rings and the counters of that run.
#include "kestrel/control/stats_command.h"

#include <gtest/gtest.h>

#include <string>

#include "probe_session.h"

namespace kestrel::cli {
namespace {

TEST(StatsCommandTest, ReportsTheRingsAndLockedMemoryOfItsRun) {
  KESTREL_REQUIRE_BPF_PRIVILEGES();
  ::testing::internal::CaptureStdout();
  const int rc = RunStats({"--duration", "0.2", "--syscalls", "getppid", "--buffer-bytes", "small",
                           "--cpus-per-buffer", "0"});
  const std::string out = ::testing::internal::GetCapturedStdout();
  EXPECT_EQ(rc, 0);
  EXPECT_NE(out.find("1 ring(s) x 1048576 bytes, one ring shared by all CPUs"), std::string::npos)
      << out;
  EXPECT_NE(out.find("bytes locked"), std::string::npos) << out;
  EXPECT_NE(out.find("drop markers 0"), std::string::npos) << out;
  EXPECT_NE(out.find("  cpu 0: written "), std::string::npos) << out;
}

TEST(StatsCommandTest, RejectsCaptureOnlyOptions) {
  EXPECT_EQ(RunStats({"--json"}), 2);
  EXPECT_EQ(RunStats({"--count", "3"}), 2);
  EXPECT_EQ(RunStats({"--buffer-bytes", "huge"}), 2);
}

}  // namespace
}  // namespace kestrel::cli
