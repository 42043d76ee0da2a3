// KESTREL_BTF_PATH (issue 21): every verb that loads a probe reads the
// kernel's BTF from the file it names. A file that is not there is one line
// naming it and the variable, exit 1, and nothing loaded or pinned; a good
// BTF file for this kernel works as the kernel's own does.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "kestrel_process.h"
#include "run_triggers.h"

namespace kestrel::e2e {
namespace {

// Sets KESTREL_BTF_PATH for the children this test starts.
class BtfPathEnv {
 public:
  explicit BtfPathEnv(const std::string& path) { setenv("KESTREL_BTF_PATH", path.c_str(), 1); }
  ~BtfPathEnv() { unsetenv("KESTREL_BTF_PATH"); }
};

class KernelBtfPathTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(geteuid(), 0u) << "kestrel tests never skip: run as root"; }
  RunTempDir dir_;
};

TEST_F(KernelBtfPathTest, ABtfFileThatIsNotThereIsOneLineAndNothingLoads) {
  const std::string missing = dir_.File("no-such-vmlinux");
  const std::string pins = absl::StrCat("/sys/fs/bpf/kestrel-e2e-btf-", getpid());
  const std::string rules = dir_.File("rules.yaml");
  WriteWhole(rules, OpenRule(dir_.path()));
  BtfPathEnv env(missing);
  const std::string why = absl::StrCat("kernel BTF not found at ", missing,
                                       " (KESTREL_BTF_PATH): No such file or directory");
  const std::vector<std::pair<std::string, std::vector<std::string>>> verbs = {
      {"kestrel run: ", {"run", "-r", rules, "--pin-dir", pins}},
      {"kestrel capture: ", {"capture", "--duration", "1", "--pin-dir", pins}},
      {"kestrel recorder start: ",
       {"recorder", "start", "--name", absl::StrCat("e2e-btf-", getpid())}},
      {"kestrel stats: ", {"stats", "--duration", "1"}},
  };
  for (const auto& [prefix, args] : verbs) {
    const CliResult r = RunKestrel(args);
    EXPECT_EQ(r.exit_code, 1) << prefix << r.err;
    EXPECT_EQ(Lines(r.err), std::vector<std::string>{prefix + why}) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
  EXPECT_FALSE(std::filesystem::exists(pins));
}

TEST_F(KernelBtfPathTest, ACopyOfTheKernelsBtfCapturesAsTheKernelsOwnDoes) {
  const std::string copy = dir_.File("vmlinux");
  std::filesystem::copy_file("/sys/kernel/btf/vmlinux", copy);
  BtfPathEnv env(copy);
  const std::string file = dir_.File("capture.kcap");
  const CliResult r = RunKestrel({"capture", "-w", file, "--duration", "1"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const CliResult read = RunKestrel({"capture", "-r", file, "--json"});
  ASSERT_EQ(read.exit_code, 0) << read.err;
  EXPECT_FALSE(read.out.empty());
}

// A file that is there but is not BTF: one line saying so, before any
// load.
TEST_F(KernelBtfPathTest, AFileThatIsNotBtfIsOneLine) {
  const std::string junk = dir_.File("not-btf");
  WriteWhole(junk, "this is not BTF\n");
  BtfPathEnv env(junk);
  const CliResult r = RunKestrel({"capture", "--duration", "1"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(r.err, absl::StrCat("kestrel capture: ", junk,
                                " (KESTREL_BTF_PATH) is not a BTF file: neither raw BTF nor an ELF "
                                "object\n"));
  EXPECT_TRUE(r.out.empty()) << r.out;
}

}  // namespace
}  // namespace kestrel::e2e
