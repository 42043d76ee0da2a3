// Issue 35: rules and config files a hostile or careless writer made,
// through the binary. Each used to crash or hang Kestrel: a 15,000-macro
// chain overflowed the stack, `not` chains cost quadratic time and memory,
// a symlink to /dev/zero grew memory without end and a FIFO blocked the
// start. Each is now one error line naming the file, and exit 1 or 2.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "kestrel_process.h"

namespace kestrel::e2e {
namespace {

class HostileRulesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ =
        std::filesystem::temp_directory_path() / absl::StrCat("kestrel-hostile-rules-", getpid());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string Path(const std::string& name) const { return (dir_ / name).string(); }
  std::string Write(const std::string& name, const std::string& text) {
    std::ofstream(Path(name)) << text;
    return Path(name);
  }

  // `n` macros m_0 .. m_{n-1}, each naming the next (`prefix` before the
  // name), the last a comparison, and one rule using m_0.
  std::string MacroChain(const std::string& name, int n, const std::string& prefix) {
    std::string text;
    for (int i = 0; i < n - 1; ++i) {
      absl::StrAppend(&text, "- macro: m_", i, "\n  condition: ", prefix, "m_", i + 1, "\n");
    }
    absl::StrAppend(&text, "- macro: m_", n - 1, "\n  condition: evt.type = open\n",
                    "- rule: chained\n  desc: d\n  condition: m_0\n  output: o\n"
                    "  priority: ERROR\n");
    return Write(name, text);
  }

  std::filesystem::path dir_;
};

TEST_F(HostileRulesTest, AMacroChainTooDeepIsOneErrorNotACrash) {
  const std::string file = MacroChain("chain.yaml", 15'000, "");
  const CliResult r = RunKestrel({"rules", "validate", file});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  const int rule_line = 2 * 15'000 + 3;  // the rule's condition
  EXPECT_EQ(r.out, absl::StrCat(file, ":", rule_line,
                                ":14: error: rule 'chained': macro 'm_14000' nests deeper than "
                                "1000 levels (macros in macros and operators in operators)\n"
                                "invalid: 1 error\n"));
}

TEST_F(HostileRulesTest, NotChainsCostLinearTimeAndAShallowOneLoads) {
  // 5,000 took 44 s and 3.3 GB before: refused at once now.
  const std::string deep = MacroChain("deep.yaml", 5'000, "not ");
  CliResult r = RunKestrel({"rules", "validate", deep});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(absl::StrContains(r.out, "nests deeper than 1000 levels")) << r.out;
  // 400 macros with a `not` each: 800 levels, within the limit.
  const std::string shallow = MacroChain("shallow.yaml", 400, "not ");
  r = RunKestrel({"rules", "validate", shallow});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(absl::StrContains(r.out, "valid: 1 rules loaded")) << r.out;
}

TEST_F(HostileRulesTest, ADeviceAFifoAndAHugeFileAreRefusedUnread) {
  const std::string zero = Path("zero.yaml");
  std::filesystem::create_symlink("/dev/zero", zero);
  CliResult r = RunKestrel({"rules", "validate", zero});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, zero +
                       ": error: is a character device, not a regular file: refused\n"
                       "invalid: 1 error\n");

  const std::string fifo = Path("fifo.yaml");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  r = RunKestrel({"rules", "validate", fifo});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, fifo + ": error: is a FIFO, not a regular file: refused\ninvalid: 1 error\n");

  const std::string huge = Path("huge.yaml");
  std::filesystem::resize_file(Write("huge.yaml", "# padding\n"), (16u << 20) + 1);
  r = RunKestrel({"rules", "validate", huge});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, huge +
                       ": error: is 16777217 bytes, more than the 16777216-byte limit: "
                       "refused\ninvalid: 1 error\n");
}

TEST_F(HostileRulesTest, AConfigThatIsAFifoOrADeviceIsAUsageError) {
  const std::string fifo = Path("fifo-config.yaml");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  CliResult r = RunKestrel({"run", "--dry-run", "-c", fifo});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(absl::StrContains(r.err, fifo + ": is a FIFO, not a regular file: refused")) << r.err;
  r = RunKestrel({"run", "--dry-run", "-c", "/dev/zero"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(
      absl::StrContains(r.err, "/dev/zero: is a character device, not a regular file: refused"))
      << r.err;
}

TEST_F(HostileRulesTest, DryRunChecksTheOutputsAStartWouldRefuse) {
  const std::string rules = Write("rules.yaml",
                                  "- rule: r\n  desc: d\n  condition: evt.type = openat\n"
                                  "  output: o\n  priority: ERROR\n");
  CliResult r = RunKestrel({"run", "--dry-run", "-r", rules, "-o", "file_output.enabled=true", "-o",
                            "file_output.filename=" + Path("no-such-dir/alerts.log")});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(absl::StrContains(
      r.err,
      "file output: cannot open " + Path("no-such-dir/alerts.log") + ": No such file or directory"))
      << r.err;
  EXPECT_FALSE(std::filesystem::exists(Path("no-such-dir")));
  // The limit is the config's to set.
  const std::string padded = Write("padded.yaml", std::string(2000, '#') + "\n");
  r = RunKestrel({"run", "--dry-run", "-r", padded, "-o", "rules_file_max_bytes=1024"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(absl::StrContains(
      r.err, padded + ": error: is 2001 bytes, more than the 1024-byte limit: refused"))
      << r.err;
  r = RunKestrel({"run", "--dry-run", "-r", rules, "-o", "http_output.enabled=true", "-o",
                  "http_output.url=file:///etc/passwd"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(absl::StrContains(
      r.err, "http output: \"file:///etc/passwd\" is not an http:// or https:// URL"))
      << r.err;
}

TEST_F(HostileRulesTest, AnEmptyRulesDirectoryIsAWarningAndAnErrorWhenStrict) {
  const std::string empty = Path("empty");
  std::filesystem::create_directories(empty);
  CliResult r = RunKestrel({"rules", "validate", empty});
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_TRUE(
      absl::StrContains(r.out, empty + ": warning: the directory holds no *.yaml or *.yml file\n"))
      << r.out;
  r = RunKestrel({"run", "--dry-run", "-r", empty});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(absl::StrContains(
      r.err, empty + ": warning: no rule is evaluated: the monitor would raise no alert\n"))
      << r.err;
  r = RunKestrel({"run", "--dry-run", "--strict", "-r", empty});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  r = RunKestrel({"rules", "validate", "--strict", empty});
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_TRUE(
      absl::StrContains(r.out, empty + ": error: the directory holds no *.yaml or *.yml file\n"))
      << r.out;
}

}  // namespace
}  // namespace kestrel::e2e
