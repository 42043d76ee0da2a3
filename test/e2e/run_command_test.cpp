// `kestrel run` without a probe: --dry-run's syscall set and why, the
// config file and -o (and which wins), and how bad ones are reported.
#include <gtest/gtest.h>
#include <sys/syscall.h>

#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "kestrel_process.h"
#include "run_triggers.h"

namespace kestrel::e2e {
namespace {

bool HasLine(const std::string& text, const std::string& line) {
  return absl::StrContains(absl::StrCat("\n", text), absl::StrCat("\n", line, "\n"));
}

bool Mentions(const std::string& text, const std::string& syscall) {
  return absl::StrContains(absl::StrCat("\n", text), absl::StrCat("\n", syscall, "  "));
}

class RunCommandTest : public ::testing::Test {
 protected:
  void SetUp() override {
    rules_ = dir_.File("rules.yaml");
    WriteWhole(rules_, OpenRule(dir_.path()) + ConnectRule(4242));
  }
  // A rules file holding one rule.
  std::string OneRule(const std::string& name, const std::string& condition,
                      const std::string& output = "o") {
    const std::string file = dir_.File(name + ".yaml");
    WriteWhole(file, absl::StrCat("- rule: ", name, "\n  desc: x\n  condition: ", condition,
                                  "\n  output: \"", output, "\"\n  priority: WARNING\n"));
    return file;
  }
  // Which of `choices` follows `setting ` in the settings line of
  // `run --dry-run -r RULES MORE...`; its stderr when none does.
  std::string DryRunSetting(const std::string& rules, const std::string& setting,
                            const std::vector<std::string>& choices,
                            const std::vector<std::string>& more = {}) {
    std::vector<std::string> args = {"run", "-r", rules, "--dry-run"};
    args.insert(args.end(), more.begin(), more.end());
    const CliResult r = RunKestrel(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    for (const std::string& c : choices) {
      if (absl::StrContains(r.err, absl::StrCat(setting, " ", c))) return c;
    }
    return r.err;
  }
  RunTempDir dir_;
  std::string rules_;
};

TEST_F(RunCommandTest, DryRunPrintsEachSyscallWithWhy) {
  const CliResult r = RunKestrel({"run", "-r", rules_, "--dry-run"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(HasLine(r.out, "openat  rule \"Open marker\", state")) << r.out;
  EXPECT_TRUE(HasLine(r.out, "connect  rule \"Connect marker\", state")) << r.out;
  EXPECT_TRUE(HasLine(r.out, "close  state")) << r.out;
  EXPECT_TRUE(HasLine(r.out, "execve  state")) << r.out;
  EXPECT_FALSE(Mentions(r.out, "getpid")) << r.out;
  // Neither rule reads a buffer; both can match a failed call.
  EXPECT_TRUE(absl::StrContains(r.err, "2 rules loaded (2 evaluated), 0 skipped;")) << r.err;
  EXPECT_TRUE(
      absl::StrContains(r.err, "snaplen 0, io data off, drop_failed off, open paths omitted"))
      << r.err;
}

// Failed calls are dropped in the probe only when no evaluated rule can
// match one, or when Falco's engine.modern_ebpf.drop_failed_exit says so.
TEST_F(RunCommandTest, FailedCallsAreDroppedOnlyWhenNoRuleCanMatchOne) {
  auto drop_failed = [&](const std::string& condition, std::vector<std::string> more = {}) {
    return DryRunSetting(OneRule("failed", condition), "drop_failed", {"on", "off"}, more);
  };
  EXPECT_EQ(drop_failed("evt.type = connect"), "off");  // EINPROGRESS, ECONNREFUSED ...
  EXPECT_EQ(drop_failed("evt.type = openat and evt.rawres >= 0"), "on");
  EXPECT_EQ(drop_failed("evt.type = execve and evt.res = SUCCESS"), "on");
  EXPECT_EQ(drop_failed("evt.type = openat and (evt.rawres >= 0 or proc.name = sh)"), "off");
  EXPECT_EQ(drop_failed("evt.type = connect", {"-o", "engine.modern_ebpf.drop_failed_exit=true"}),
            "on");
}

// The kernel-resolved path of opened files is kept when a condition reads
// it, when a rule that can match an open prints it, or when alerts save
// capture files; a rule on other syscalls printing it changes nothing.
TEST_F(RunCommandTest, OpenPathsAreKeptOnlyWhenSomethingReadsThem) {
  auto paths_line = [&](const std::string& rules, std::vector<std::string> more = {}) {
    return DryRunSetting(rules, "open paths", {"omitted", "kept"}, more);
  };
  EXPECT_EQ(paths_line(rules_), "omitted");
  EXPECT_EQ(paths_line(OneRule("cond", "evt.type = openat and evt.arg.path = /etc/shadow", "x")),
            "kept");
  EXPECT_EQ(paths_line(OneRule("printed", "evt.type in (open, openat)", "%evt.arg.path")), "kept");
  EXPECT_EQ(paths_line(OneRule("args", "evt.type = creat", "%evt.args")), "kept");
  EXPECT_EQ(paths_line(OneRule("elsewhere", "evt.type = connect", "%evt.args %evt.arg[1]")),
            "omitted");
  EXPECT_EQ(paths_line(rules_, {"-o", "capture.enabled=true"}), "kept");
}

TEST_F(RunCommandTest, BaseSyscallsAddAndRemove) {
  const CliResult r = RunKestrel({"run", "-r", rules_, "--dry-run", "-o",
                                  "base_syscalls.custom_set=[getpid, '!connect']", "-o",
                                  "base_syscalls.repair=true"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(HasLine(r.out, "getpid  base_syscalls.custom_set")) << r.out;
  EXPECT_TRUE(HasLine(r.out, "close  base_syscalls.repair")) << r.out;
  EXPECT_FALSE(Mentions(r.out, "connect")) << r.out;
}

// The config's priority keeps only the connect rule; -o, given later, wins.
TEST_F(RunCommandTest, OverridesWinOverTheConfigFile) {
  const std::string config = dir_.File("kestrel.yaml");
  WriteWhole(config, absl::StrCat("rules_files: [", rules_, "]\npriority: critical\n"));
  CliResult r = RunKestrel({"run", "-c", config, "--dry-run"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(HasLine(r.out, "connect  rule \"Connect marker\", state")) << r.out;
  EXPECT_TRUE(HasLine(r.out, "openat  state")) << r.out;

  r = RunKestrel({"run", "-c", config, "-o", "priority=warning", "--dry-run"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(HasLine(r.out, "openat  rule \"Open marker\", state")) << r.out;
  EXPECT_TRUE(HasLine(r.out, "connect  rule \"Connect marker\", state")) << r.out;

  // -r replaces the config's rules_files.
  const std::string other = dir_.File("other.yaml");
  WriteWhole(other, OpenRule(dir_.path()));
  r = RunKestrel({"run", "-c", config, "-r", other, "-o", "priority=debug", "--dry-run"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(HasLine(r.out, "connect  state")) << r.out;

  // Falco's key[]=value appends to the config's list.
  const std::string exec_rules = dir_.File("exec.yaml");
  WriteWhole(exec_rules, ExecRule("kestrel-append"));
  r = RunKestrel({"run", "-c", config, "-o", "rules_files[]=" + exec_rules, "-o", "priority=debug",
                  "--dry-run"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(HasLine(r.out, "connect  rule \"Connect marker\", state")) << r.out;
  EXPECT_TRUE(absl::StrContains(r.out, "execve  rule \"Exec marker\"")) << r.out;
}

TEST_F(RunCommandTest, ABadConfigLineIsAnErrorNamingIt) {
  const std::string config = dir_.File("bad.yaml");
  WriteWhole(config, "json_output: true\npriority: loud\n");
  const CliResult r = RunKestrel({"run", "-r", rules_, "-c", config, "--dry-run"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, absl::StrCat("kestrel run: ", config,
                                ":2:1: priority: \"loud\" is not a priority (emergency, alert, "
                                "critical, error, warning, notice, informational, debug)\n"));
}

TEST_F(RunCommandTest, UnknownConfigKeysWarnButUnknownOverridesFail) {
  const std::string config = dir_.File("odd.yaml");
  WriteWhole(config, "colours: []\n");
  CliResult r = RunKestrel({"run", "-r", rules_, "-c", config, "--dry-run"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(absl::StrContains(r.err, absl::StrCat("kestrel run: warning: ", config,
                                                    ":1:1: unknown key \"colours\" ignored\n")))
      << r.err;

  r = RunKestrel({"run", "-r", rules_, "-o", "json_outptu=true", "--dry-run"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(absl::StartsWith(r.err, "kestrel run: -o: unknown key \"json_outptu\" (keys: "))
      << r.err;
  EXPECT_TRUE(absl::StrContains(r.err, "Run 'kestrel run --help' for the options.")) << r.err;
}

TEST_F(RunCommandTest, BrokenRulesExitTwoWithTheirPlace) {
  const std::string broken = dir_.File("broken.yaml");
  WriteWhole(broken,
             "- rule: Broken\n  desc: x\n  condition: evt.type = openat and\n"
             "  output: x\n  priority: WARNING\n");
  const CliResult r = RunKestrel({"run", "-r", broken, "--dry-run"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_TRUE(absl::StrContains(r.err, absl::StrCat("kestrel run: ", broken, ":"))) << r.err;
  EXPECT_TRUE(absl::StrContains(r.err, "kestrel run: the rules did not load")) << r.err;
}

TEST(RunHelpTest, HelpDocumentsExitCodesAndThePin) {
  const CliResult r = RunKestrel({"run", "--help"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_TRUE(absl::StrContains(r.out, "Exit codes: 0 ok, 1 the run failed")) << r.out;
  EXPECT_TRUE(absl::StrContains(r.out, "/sys/fs/bpf/kestrel")) << r.out;
  EXPECT_TRUE(absl::StrContains(r.out, "--replay")) << r.out;
}

}  // namespace
}  // namespace kestrel::e2e
