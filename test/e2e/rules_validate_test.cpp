// `kestrel rules validate` through the binary: a valid file, a file with a
// skipped rule, a broken file with its exact error line, exit codes, help.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "kestrel_process.h"

namespace kestrel::e2e {
namespace {

class RulesValidateTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("kestrel-rules-validate-" + std::to_string(getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string Write(const std::string& name, const std::string& text) {
    const std::string path = (dir_ / name).string();
    std::ofstream(path) << text;
    return path;
  }

  std::filesystem::path dir_;
};

constexpr char kValid[] = R"(- required_engine_version: 0.57.0
- list: shells
  items: [bash, sh]
- macro: spawned
  condition: evt.type = execve
- rule: Shell spawned
  desc: a shell started
  condition: spawned and proc.name in (shells)
  output: shell %proc.name (parent %proc.pname)
  priority: WARNING
- rule: Pod shell
  desc: needs a field Kestrel lacks (disabled, so skipped rather than an error)
  condition: spawned and k8s.deployment.name exists
  output: pod %k8s.deployment.name
  priority: NOTICE
  enabled: false
)";

TEST_F(RulesValidateTest, ValidFilePrintsCountsAndSkippedRules) {
  const std::string file = Write("valid.yaml", kValid);
  CliResult r = RunKestrel({"rules", "validate", file});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, file +
                       ":13:14: warning: rule 'Pod shell': field 'k8s.deployment.name' is not one "
                       "Kestrel has: rule skipped (disabled)\n"
                       "valid: 1 rules loaded (1 enabled), 1 skipped\n");
  EXPECT_EQ(r.err, "");
}

TEST_F(RulesValidateTest, StrictMakesAMissingFieldAnError) {
  const std::string file = Write("valid.yaml", kValid);
  CliResult r = RunKestrel({"rules", "validate", "--strict", file});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, file +
                       ":13:14: error: rule 'Pod shell': field 'k8s.deployment.name' is not one "
                       "Kestrel has\n"
                       "invalid: 1 error\n");
}

// Issue 36: a field that exists but that nothing on this machine fills
// (container metadata with no runtime answering on the default sockets, as
// on the test machine; pod metadata; DNS names) is absent,
// and a rule reading one is named: whether it can fire at all here, and
// which fields, and why. Disabled rules are not named.
constexpr char kUnfilled[] = R"(- rule: Privileged shell
  desc: can never fire without runtime metadata
  condition: evt.type = execve and container.id != host and container.privileged = true
  output: shell in %container.name
  priority: WARNING
- rule: Shell outside trusted images
  desc: loses its exception
  condition: >
    evt.type = execve and proc.name = sh and not container.image.repository in (trusted)
  output: shell
  priority: WARNING
- rule: Disabled pod rule
  desc: not evaluated, not named
  condition: evt.type = execve and k8s.ns.name = kube-system
  output: x
  priority: WARNING
  enabled: false
)";

TEST_F(RulesValidateTest, RulesReadingFieldsNothingHereFillsAreNamed) {
  const std::string file = Write("unfilled.yaml", kUnfilled);
  CliResult r = RunKestrel({"rules", "validate", file});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, file +
                       ":3:14: warning: rule 'Privileged shell': cannot fire here: "
                       "container.privileged comes from a container runtime's metadata, and no "
                       "runtime answers on the sockets configured (container_engines)\n" +
                       file +
                       ":8:14: warning: rule 'Shell outside trusted images': reads fields nothing "
                       "here fills, so comparisons on them are false: container.image.repository "
                       "comes from a container runtime's metadata, and no runtime answers on the "
                       "sockets configured (container_engines)\n"
                       "valid: 3 rules loaded (2 enabled), 0 skipped\n");
  r = RunKestrel({"rules", "validate", "--strict", file});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(Lines(r.out).back(), "invalid: 2 errors") << r.out;
}

TEST_F(RulesValidateTest, BrokenFileNamesTheLineAndColumn) {
  const std::string file = Write("broken.yaml", R"(- rule: Bad
  desc: d
  condition: evt.type = openat and fd.name startswith
  output: o
  priority: WARNING
- macro: loop
  condition: loop
- rule: Loops
  desc: d
  condition: evt.type = open and loop
  output: o
  priority: LOUD
)");
  CliResult r = RunKestrel({"rules", "validate", file});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, file +
                       ":12:13: error: rule 'Loops': unknown priority 'LOUD' (emergency, alert, "
                       "critical, error, warning, notice, informational, debug)\n"
                       "invalid: 1 error\n");
  // Fixed priority: now the conditions are checked.
  const std::string second = Write("broken2.yaml", R"(- rule: Bad
  desc: d
  condition: evt.type = openat and fd.name startswith
  output: o
  priority: WARNING
- macro: loop
  condition: loop
- rule: Loops
  desc: d
  condition: evt.type = open and loop
  output: o
  priority: ERROR
)");
  r = RunKestrel({"rules", "validate", second});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, second +
                       ":3:54: error: rule 'Bad': condition does not parse: expected a value "
                       "after 'startswith', found the end of the condition\n" +
                       second +
                       ":10:14: error: rule 'Loops': macro 'loop' uses itself: loop -> "
                       "loop\n"
                       "invalid: 2 errors\n");
}

// fd.*ip.name is compared with names (resolved to addresses), by =, != and
// in only, as in Falco.
TEST_F(RulesValidateTest, AddressNamesTakeEqualsAndInOnly) {
  const std::string file = Write("names.yaml", R"(- rule: Cluster API
  desc: d
  condition: evt.type = connect and fd.sip.name in (kubernetes.default.svc, localhost)
  output: to %fd.sip.name
  priority: NOTICE
- rule: Name part
  desc: d
  condition: evt.type = connect and fd.sip.name contains example
  output: o
  priority: NOTICE
)");
  CliResult r = RunKestrel({"rules", "validate", file});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, file +
                       ":8:14: error: rule 'Name part': condition does not compile: fd.sip.name is "
                       "compared with names by =, != and in only, not contains\n"
                       "invalid: 1 error\n");
}

TEST_F(RulesValidateTest, MissingFileAndUsage) {
  CliResult r = RunKestrel({"rules", "validate", (dir_ / "none.yaml").string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out,
            (dir_ / "none.yaml").string() +
                ": error: cannot open the file: No such file or directory\ninvalid: 1 error\n");
  // No file: the config's rules_files, else Kestrel's own rules.
  const CliResult defaults = RunKestrel({"rules", "validate"});
  EXPECT_EQ(defaults.exit_code, 0) << defaults.out;
  EXPECT_TRUE(absl::StartsWith(defaults.out, "valid: ")) << defaults.out;
  EXPECT_EQ(RunKestrel({"rules", "validate", "--bogus"}).exit_code, 2);
  EXPECT_EQ(RunKestrel({"rules", "validate", "-o", "no_such_key=1"}).exit_code, 2);
  EXPECT_EQ(RunKestrel({"rules"}).exit_code, 2);
  CliResult help = RunKestrel({"rules", "--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.out.find("validate"), std::string::npos) << help.out;
  EXPECT_NE(help.out.find("2 an error was found"), std::string::npos) << help.out;
}

// The same bad file is the same failure for every verb that reads it.
TEST_F(RulesValidateTest, ABadFileExitsAsRunDoes) {
  const std::string file = Write("bad_for_both.yaml", "- rule: r\n  condition: evt.type =\n");
  EXPECT_EQ(RunKestrel({"rules", "validate", file}).exit_code, 2);
  EXPECT_EQ(RunKestrel({"run", "--dry-run", "--no-pin", "-r", file}).exit_code, 2);
}

}  // namespace
}  // namespace kestrel::e2e
