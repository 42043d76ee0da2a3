// `kestrel syscalls` and `kestrel settings` through the binary. The pinned
// target is a flight recorder (`kestrel recorder start`), which pins its
// settings block as `control` exactly as `capture --pin-dir` does, in this
// test's own pin directory; it is stopped and the directory removed after.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>

#include "kestrel_process.h"

namespace kestrel::e2e {
namespace {

TEST(SyscallsTest, ListsTheSyscallsKestrelKnows) {
  const CliResult r = RunKestrel({"syscalls"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.err, "");
  EXPECT_TRUE(Contains(r.out, "\n110 getppid\n")) << r.out.substr(0, 400);
  EXPECT_EQ(r.out.find("  0 read\n"), 0u);
}

TEST(SyscallsTest, CoverageIsTheCommittedDocument) {
  const CliResult r = RunKestrel({"syscalls", "coverage"});
  EXPECT_EQ(r.exit_code, 0);
  std::ifstream doc(KESTREL_SOURCE_DIR "/docs/syscall_coverage.md");
  std::stringstream expected;
  expected << doc.rdbuf();
  EXPECT_EQ(r.out, expected.str());
}

TEST(SyscallsTest, NoPinnedCaptureIsARunFailure) {
  const std::string dir = "/sys/fs/bpf/kestrel-e2e-none-" + std::to_string(getpid());
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"syscalls", "list", "--pin-dir", dir},
                                             {"syscalls", "enable", "getppid", "--pin-dir", dir},
                                             {"settings", "get", "--pin-dir", dir}}) {
    const CliResult r = RunKestrel(args);
    EXPECT_EQ(r.exit_code, 1) << args[0] << " " << args[1];
    EXPECT_EQ(r.out, "");
    EXPECT_TRUE(Contains(r.err, "kestrel " + args[0] + ": ")) << r.err;
  }
}

class PinnedControlTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = "/sys/fs/bpf/kestrel-e2e-" + std::to_string(getpid());
    dir_ = root_ + "/e2e";
    const CliResult r =
        RunKestrel({"recorder", "start", "--name", "e2e", "--pin-root", root_, "--size", "1M"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  void TearDown() override {
    const CliResult r = RunKestrel({"recorder", "stop", "--name", "e2e", "--pin-root", root_});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    rmdir(dir_.c_str());
    rmdir(root_.c_str());
    struct stat st;
    EXPECT_NE(stat(root_.c_str(), &st), 0) << root_ << " survived the test";
  }

  // The line `syscalls list` prints for getppid.
  std::string GetppidState() {
    const CliResult r = RunKestrel({"syscalls", "list", "--pin-dir", dir_});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    const size_t at = r.out.find("110 getppid ");
    return at == std::string::npos ? "" : r.out.substr(at, r.out.find('\n', at) - at);
  }

  std::string root_;
  std::string dir_;
};

TEST_F(PinnedControlTest, SyscallsEnableDisableAndList) {
  EXPECT_EQ(GetppidState(), "110 getppid                  on");
  CliResult r = RunKestrel({"syscalls", "disable", "getppid,getpid", "--pin-dir", dir_});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.find("disabled: 2 syscall(s) (generation "), 0u) << r.out;
  EXPECT_EQ(GetppidState(), "110 getppid                  off");
  r = RunKestrel({"syscalls", "enable", "getppid", "--pin-dir", dir_});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.find("enabled: 1 syscall(s) (generation "), 0u) << r.out;
  EXPECT_EQ(GetppidState(), "110 getppid                  on");
}

TEST_F(PinnedControlTest, SyscallsDropClassEachClass) {
  for (const std::string cls : {"never", "always", "sampled"}) {
    const CliResult r =
        RunKestrel({"syscalls", "drop-class", cls, "getppid", "openat", "--pin-dir", dir_});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out.find("drop class " + cls + ": 2 syscall(s) (generation "), 0u) << r.out;
  }
}

TEST_F(PinnedControlTest, SettingsSetThenGet) {
  CliResult r = RunKestrel({"settings", "set", "sampling_ratio=4", "--pin-dir", dir_});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.find("settings updated: sampling_ratio=4 (generation "), 0u) << r.out;
  r = RunKestrel({"settings", "get", "sampling_ratio", "--pin-dir", dir_});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "sampling_ratio=4\n");
  r = RunKestrel({"settings", "get", "--pin-dir", dir_});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Contains(r.out, "\nsampling_ratio=4\n") || r.out.find("sampling_ratio=4\n") == 0)
      << r.out;
}

TEST_F(PinnedControlTest, SettingsSetRefusesABadValueAndChangesNothing) {
  const CliResult r = RunKestrel({"settings", "set", "sampling_ratio=0", "--pin-dir", dir_});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err.find("kestrel settings set: KEY=VALUE: "), 0u) << r.err;
  EXPECT_TRUE(Contains(r.err, "nothing was changed")) << r.err;
}

}  // namespace
}  // namespace kestrel::e2e
