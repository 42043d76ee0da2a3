// `kestrel settings set` against a real pinned capture takes every value up
// to the settings table's bounds and refuses one past them, naming the
// bound, with exit code 2 and nothing changed.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <string>
#include <thread>

#include "kestrel_process.h"

namespace kestrel::e2e {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

// Polls until the capture answers on its pins.
bool WaitForPins(const std::string& dir) {
  for (int i = 0; i < 200; ++i) {
    if (RunKestrel({"settings", "get", "snaplen", "--pin-dir", dir}).exit_code == 0) return true;
    std::this_thread::sleep_for(milliseconds(50));
  }
  return false;
}

TEST(SettingsBoundsTest, SetTakesTheBoundsAndRefusesOnePastThem) {
  ASSERT_EQ(geteuid(), 0u) << "loads the probe: run as root";
  const std::string dir = "/sys/fs/bpf/kestrel-test-" + std::to_string(getpid()) + "-bounds";
  // Traces only init, so the capture prints next to nothing.
  KestrelProcess capture({"capture", "--pin-dir", dir, "--pid", "1"});
  ASSERT_TRUE(WaitForPins(dir));

  CliResult r = RunKestrel({"settings", "set", "snaplen=16385", "--pin-dir", dir});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("kestrel settings: snaplen=16385: 16385 is above the maximum 16384; "
                       "nothing was changed"),
            std::string::npos)
      << r.err;
  r = RunKestrel({"settings", "set", "sampling_ratio=0", "--pin-dir", dir});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("0 is below the minimum 1"), std::string::npos) << r.err;
  r = RunKestrel({"settings", "set", "own_tgid=1", "--pin-dir", dir});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("own_tgid is read-only"), std::string::npos) << r.err;
  r = RunKestrel({"settings", "get", "snaplen", "sampling_ratio", "--pin-dir", dir});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "snaplen=80\nsampling_ratio=1\n");  // the table's defaults, untouched

  r = RunKestrel(
      {"settings", "set", "snaplen=16384", "sampling_ratio=4294967295", "--pin-dir", dir});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  r = RunKestrel({"settings", "get", "snaplen", "sampling_ratio", "--pin-dir", dir});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "snaplen=16384\nsampling_ratio=4294967295\n");

  capture.Signal(SIGINT);
  const CliResult end = capture.Wait(seconds(30));
  EXPECT_EQ(end.exit_code, 0) << end.err;
  struct stat st {};
  EXPECT_NE(stat(dir.c_str(), &st), 0) << dir << " survived the capture";
}

}  // namespace
}  // namespace kestrel::e2e
