// The command lines of `kestrel recorder` and `kestrel dump`: --help with an
// example, and every usage error one line on stderr with exit code 2,
// before anything is loaded or touched.
#include <gtest/gtest.h>

#include "absl/strings/str_join.h"
#include "recorder_pin_root.h"

namespace kestrel::e2e {
namespace {

struct HelpCase {
  std::vector<std::string> args;
  std::string usage;
  std::string example;
};

TEST(RecorderCliTest, HelpExits0WithAnExample) {
  const HelpCase cases[] = {
      {{"recorder", "--help"}, "kestrel recorder", "kestrel recorder start --size 16M"},
      {{"recorder", "start", "--help"},
       "kestrel recorder start",
       "Example:\n  kestrel recorder start --name web"},
      {{"recorder", "stop", "-h"},
       "kestrel recorder stop",
       "Example:\n  kestrel recorder stop --name web"},
      {{"dump", "--help"}, "kestrel dump", "Example:\n  kestrel dump --name web --since 10s"},
  };
  for (const HelpCase& c : cases) {
    const CliResult r = RunKestrel(c.args);
    EXPECT_EQ(r.exit_code, 0) << c.usage;
    EXPECT_EQ(r.err, "") << c.usage;
    EXPECT_NE(r.out.find(c.usage), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(c.example), std::string::npos) << r.out;
  }
  EXPECT_NE(RunKestrel({"recorder", "--help"}).out.find("stop"), std::string::npos);
}

struct UsageCase {
  std::vector<std::string> args;
  std::string first_line;  // the whole first line of stderr
};

TEST(RecorderCliTest, UsageErrorsExit2WithOneLineNamingTheFlag) {
  const UsageCase cases[] = {
      {{"recorder", "start", "--name", "a/b"},
       "kestrel recorder start: --name: \"a/b\" is not a recorder name: use 1 to 64 letters, "
       "digits, '-', '_' or '.'"},
      {{"recorder", "start", "--name", ".."},
       "kestrel recorder start: --name: \"..\" is not a recorder name: use 1 to 64 letters, "
       "digits, '-', '_' or '.'"},
      {{"recorder", "stop", "--name", std::string(65, 'x')},
       "kestrel recorder stop: --name: \"" + std::string(65, 'x') +
           "\" is not a recorder name: use 1 to 64 letters, digits, '-', '_' or '.'"},
      {{"dump", "--name", "a b"},
       "kestrel dump: --name: \"a b\" is not a recorder name: use 1 to 64 letters, digits, '-', "
       "'_' or '.'"},
      {{"recorder", "start", "--size", "12X"},
       "kestrel recorder start: --size: \"12X\" is not a size (e.g. 65536, 512K, 64M, 1G)"},
      {{"recorder", "start", "--size", "large"},
       "kestrel recorder start: --size: \"large\" is not a size (e.g. 65536, 512K, 64M, 1G)"},
      {{"recorder", "start", "--pin-root", "relative"},
       "kestrel recorder start: --pin-root: \"relative\" is not an absolute path"},
      {{"dump", "--since", "3d"},
       "kestrel dump: --since: \"3d\" is not a duration (e.g. 500ms, 10s, 5m, 2h)"},
      {{"dump", "--last", "0"}, "kestrel dump: --last: \"0\" is not a count of at least 1"},
  };
  for (const UsageCase& c : cases) {
    const CliResult r = RunKestrel(c.args);
    EXPECT_EQ(r.exit_code, 2) << c.first_line;
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err.substr(0, r.err.find('\n')), c.first_line);
  }
}

TEST(RecorderCliTest, RepeatedOrClashingFlagsAreUsageErrors) {
  const std::vector<std::vector<std::string>> cases = {
      {"recorder", "start", "--name", "a", "--name", "b"},
      {"recorder", "start", "--size", "1M", "--size", "2M"},
      {"recorder", "start", "--per-cpu", "--per-cpu"},
      {"recorder", "stop", "--pin-root", "/sys/fs/bpf/a", "--pin-root", "/sys/fs/bpf/b"},
      {"dump", "--json", "--json"},
      {"dump", "--last", "1", "--since", "1s"},
      {"dump", "--bogus"},
      {"recorder"},
      {"recorder", "restart"},
      {"recorder", "stop", "--size", "1M"},
  };
  for (const std::vector<std::string>& args : cases) {
    const CliResult r = RunKestrel(args);
    EXPECT_EQ(r.exit_code, 2) << absl::StrJoin(args, " ") << "\n" << r.err;
    const std::string prefix = args[0] == "dump" ? "kestrel dump" : "kestrel recorder";
    EXPECT_EQ(r.err.rfind(prefix, 0), 0u) << r.err;
  }
}

TEST(RecorderCliTest, ABadNameChangesNothing) {
  RecorderPinRoot root;
  const CliResult r =
      RunKestrel({"recorder", "start", "--name", "../x", "--pin-root", root.path()});
  EXPECT_EQ(r.exit_code, 2);
  std::error_code ignored;
  EXPECT_TRUE(std::filesystem::is_empty(root.path(), ignored));
}

}  // namespace
}  // namespace kestrel::e2e
