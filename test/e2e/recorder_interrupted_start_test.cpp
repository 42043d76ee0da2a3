// A `kestrel recorder start` killed halfway (SIGKILL after some pins) leaves
// a half-made recorder that every command names as such, that stop removes
// and that a new start clears and reuses.
#include <gtest/gtest.h>
#include <signal.h>
#include <stdlib.h>

#include <chrono>
#include <thread>

#include "recorder_pin_root.h"

namespace kestrel::e2e {
namespace {

constexpr char kStallEnv[] = "KESTREL_TEST_RECORDER_START_STALL_AFTER";

// Starts a recorder that stalls right after pinning `pin`, waits until that
// pin exists and kills the start with SIGKILL.
void KillStartAfter(const RecorderPinRoot& root, const std::string& pin) {
  setenv(kStallEnv, pin.c_str(), 1);
  KestrelProcess start(root.Args({"recorder", "start"}, {"--size", "64K"}));
  unsetenv(kStallEnv);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!Exists(root.dir() + "/" + pin) && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_TRUE(Exists(root.dir() + "/" + pin)) << "start never pinned " << pin;
  start.Signal(SIGKILL);
  EXPECT_EQ(start.Wait().exit_code, 128 + SIGKILL);
  ASSERT_TRUE(Exists(root.dir()));
}

std::string StopCommand(const RecorderPinRoot& root) {
  return "kestrel recorder stop --name " + root.name() + " --pin-root " + root.path();
}

TEST(RecorderInterruptedStartTest, DumpNamesAHalfMadeRecorderAndStopRemovesIt) {
  RecorderPinRoot root;
  KillStartAfter(root, "slots");

  const CliResult dump = RunKestrel(root.Args({"dump"}));
  EXPECT_EQ(dump.exit_code, 1);
  EXPECT_NE(dump.err.find(root.dir() + " holds a half-made recorder"), std::string::npos)
      << dump.err;
  EXPECT_NE(dump.err.find("`" + StopCommand(root) + "`"), std::string::npos) << dump.err;

  const CliResult stop = RunKestrel(root.Args({"recorder", "stop"}));
  EXPECT_EQ(stop.exit_code, 0) << stop.err;
  EXPECT_EQ(stop.out, "recorder rec removed: it was half-made (its start had been interrupted)\n");
  EXPECT_FALSE(Exists(root.dir()));
}

TEST(RecorderInterruptedStartTest, StartRecoversAHalfMadeRecorderWithLinksAttached) {
  RecorderPinRoot root;
  // Fork and exit hooks already pinned, so attached; the sys_exit link not.
  KillStartAfter(root, "exit_link");

  const CliResult start = RunKestrel(root.Args({"recorder", "start"}, {"--size", "64K"}));
  EXPECT_EQ(start.exit_code, 0) << start.err;
  EXPECT_NE(start.err.find("removed the remains of an interrupted recorder start at " + root.dir() +
                           " (8 pin(s))"),
            std::string::npos)
      << start.err;
  EXPECT_EQ(start.out, "recorder rec started: " + root.dir() + "\n");
  EXPECT_EQ(RunKestrel(root.Args({"dump"}, {"--last", "1"})).exit_code, 0);

  const CliResult stop = RunKestrel(root.Args({"recorder", "stop"}));
  EXPECT_EQ(stop.exit_code, 0) << stop.err;
  EXPECT_EQ(stop.out, "recorder rec stopped\n");
  EXPECT_FALSE(Exists(root.dir()));
}

TEST(RecorderInterruptedStartTest, AnEmptyFolderIsAHalfMadeRecorder) {
  RecorderPinRoot root;
  ASSERT_EQ(mkdir(root.dir().c_str(), 0700), 0);
  const CliResult dump = RunKestrel(root.Args({"dump"}));
  EXPECT_EQ(dump.exit_code, 1);
  EXPECT_NE(dump.err.find("holds a half-made recorder (0 of 9 pins"), std::string::npos)
      << dump.err;
  const CliResult stop = RunKestrel(root.Args({"recorder", "stop"}));
  EXPECT_EQ(stop.exit_code, 0) << stop.err;
  EXPECT_FALSE(Exists(root.dir()));
}

}  // namespace
}  // namespace kestrel::e2e
