// Issue 21's privilege faults, through the binary as an unprivileged user
// (nobody): loading the probe is refused in one line with exit code 1, and
// the pins of a running capture or recorder (a 0700 folder of 0600 pins)
// can be neither read, toggled nor dumped.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <regex>
#include <string>
#include <thread>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "kestrel_process.h"
#include "pin_dir_guard.h"
#include "recorder_pin_root.h"
#include "run_triggers.h"

namespace kestrel::e2e {
namespace {

constexpr uid_t kNobody = 65534;
constexpr char kNotPrivileged[] =
    "not privileged: loading the probe needs CAP_BPF and CAP_PERFMON (run as root, or grant "
    "them with setcap cap_bpf,cap_perfmon+ep)\n";

mode_t ModeOf(const std::string& path) {
  struct stat st {};
  EXPECT_EQ(stat(path.c_str(), &st), 0) << path;
  return st.st_mode & 07777;
}

// One line on stderr, a failure exit code.
void ExpectRefusedInOneLine(const CliResult& r, const std::string& what) {
  EXPECT_NE(r.exit_code, 0) << what;
  EXPECT_NE(r.exit_code, 126) << what << ": nobody could not run the binary";
  EXPECT_TRUE(r.out.empty()) << what << ": " << r.out;
  ASSERT_FALSE(r.err.empty()) << what;
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << what << ": " << r.err;
}

class UnprivilegedTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(geteuid(), 0u) << "kestrel tests never skip: run as root"; }
};

TEST_F(UnprivilegedTest, LoadingTheProbeIsRefusedInOneLine) {
  // A rules file nobody can read, in a folder nobody can enter.
  RunTempDir dir;
  chmod(dir.path().c_str(), 0755);
  const std::string rules = dir.File("rules.yaml");
  WriteWhole(rules, OpenRule(dir.path()));
  chmod(rules.c_str(), 0644);

  CliResult r = RunKestrelAs(kNobody, {"run", "-r", rules, "--no-pin"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(r.err, absl::StrCat("kestrel run: ", kNotPrivileged));
  r = RunKestrelAs(kNobody, {"capture", "--count", "1"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(r.err, absl::StrCat("kestrel capture: ", kNotPrivileged));
  r = RunKestrelAs(kNobody, {"recorder", "start", "--name", "nobody", "--pin-root", "/tmp"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_TRUE(absl::StrContains(r.err, kNotPrivileged)) << r.err;
}

TEST_F(UnprivilegedTest, APinnedCaptureCannotBeReadOrToggledByOthers) {
  PinDirGuard pin(absl::StrCat("/sys/fs/bpf/kestrel-e2e-unpriv-", getpid()));
  KestrelProcess capture({"capture", "--syscalls", "getppid", "--pin-dir", pin.dir()});
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (!PathExists(pin.dir() + "/rings") && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ASSERT_TRUE(PathExists(pin.dir() + "/rings"));
  EXPECT_EQ(ModeOf(pin.dir()), 0700u);
  for (const char* name : {"control", "counters", "rings"}) {
    EXPECT_EQ(ModeOf(pin.dir() + "/" + name), 0600u) << name;
  }

  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"syscalls", "list"},
                                             {"syscalls", "disable", "getppid"},
                                             {"syscalls", "drop-class", "always", "getppid"},
                                             {"settings", "get"},
                                             {"settings", "set", "snaplen=1"}}) {
    std::vector<std::string> with_dir = args;
    with_dir.push_back("--pin-dir");
    with_dir.push_back(pin.dir());
    ExpectRefusedInOneLine(RunKestrelAs(kNobody, with_dir), with_dir[0] + " " + with_dir[1]);
  }
  // Nothing changed: getppid is still on, the snaplen still capture's 80.
  const CliResult list = RunKestrel({"syscalls", "list", "--pin-dir", pin.dir()});
  EXPECT_TRUE(std::regex_search(list.out, std::regex("\\n[0-9]+ +getppid +on\\n"))) << list.out;
  const CliResult get = RunKestrel({"settings", "get", "snaplen", "--pin-dir", pin.dir()});
  EXPECT_EQ(get.out, "snaplen=80\n") << get.err;
  capture.Signal(SIGINT);
  EXPECT_EQ(capture.Wait().exit_code, 0);
}

TEST_F(UnprivilegedTest, ARecorderCannotBeDumpedOrStoppedByOthers) {
  RecorderPinRoot root;
  ASSERT_EQ(RunKestrel(root.Args({"recorder", "start"}, {"--size", "1M"})).exit_code, 0);
  ExpectRefusedInOneLine(RunKestrelAs(kNobody, root.Args({"dump"})), "dump");
  ExpectRefusedInOneLine(RunKestrelAs(kNobody, root.Args({"recorder", "stop"})), "recorder stop");
  EXPECT_TRUE(Exists(root.dir())) << "nobody stopped the recorder";
  EXPECT_EQ(RunKestrel(root.Args({"recorder", "stop"})).exit_code, 0);
}

}  // namespace
}  // namespace kestrel::e2e
