// Issue 21: a user who is not root but holds CAP_BPF and CAP_PERFMON (and
// nothing else) runs captures and rules as root does. What needs more, a
// pin under root's bpffs, is refused in one line, exit 1, with nothing
// left behind.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "kestrel_process.h"
#include "run_triggers.h"

namespace kestrel::e2e {
namespace {

constexpr RunAs kNobodyWithBpfCaps{.uid = 65534, .bpf_caps = true};

CliResult RunWithBpfCaps(const std::vector<std::string>& args) {
  KestrelProcess p(args, kNobodyWithBpfCaps);
  return p.Wait(std::chrono::seconds(60));
}

class BpfCapsOnlyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(geteuid(), 0u) << "kestrel tests never skip: run as root";
    chmod(dir_.path().c_str(), 0755);
  }
  RunTempDir dir_;
};

TEST_F(BpfCapsOnlyTest, CaptureRuns) {
  const CliResult r = RunWithBpfCaps({"capture", "--duration", "1"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(r.out.empty());
  EXPECT_TRUE(absl::StrContains(r.err, "left unread 0, dropped 0 (")) << r.err;
}

TEST_F(BpfCapsOnlyTest, RunAlertsWithoutPinning) {
  const std::string mark = absl::StrCat("caps-", getpid());
  const std::string rules = dir_.File("rules.yaml");
  WriteWhole(rules, ExecRule(mark));
  chmod(rules.c_str(), 0644);
  KestrelProcess run({"run", "-r", rules, "--no-pin"}, kNobodyWithBpfCaps);
  std::optional<std::string> alert;
  for (int i = 0; i < 60 && !alert; ++i) {
    ExecTrue(mark);
    alert = run.WaitForLine(absl::StrCat("ran true ", mark), std::chrono::milliseconds(500));
  }
  run.Signal(SIGINT);
  const CliResult r = run.Wait();
  ASSERT_TRUE(alert) << r.err;
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(absl::StrContains(*alert, "Notice ran true " + mark)) << *alert;
  EXPECT_TRUE(absl::StrContains(r.err, "dropped 0 (ring full 0,")) << r.err;
}

// bpffs at /sys/fs/bpf belongs to root: pinning there needs more than the
// two capabilities, and says so in one line.
TEST_F(BpfCapsOnlyTest, PinningUnderRootsBpffsIsRefusedInOneLine) {
  const std::string rules = dir_.File("rules.yaml");
  WriteWhole(rules, ExecRule("never"));
  chmod(rules.c_str(), 0644);
  const std::string pins = absl::StrCat("/sys/fs/bpf/kestrel-e2e-caps-", getpid());
  CliResult r = RunWithBpfCaps({"run", "-r", rules, "--pin-dir", pins});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_TRUE(absl::StrContains(r.err, absl::StrCat("creating ", pins, ": Permission denied\n")))
      << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_FALSE(std::filesystem::exists(pins));

  r = RunWithBpfCaps({"recorder", "start", "--name", absl::StrCat("e2e-caps-", getpid())});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_TRUE(absl::StrContains(r.err, "Permission denied")) << r.err;
}

}  // namespace
}  // namespace kestrel::e2e
