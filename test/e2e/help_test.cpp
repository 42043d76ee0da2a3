// The entry point's own contract: usage, help on every verb and sub-verb,
// --version, and exit 2 with one clear line for an unknown verb or flag.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kestrel_process.h"

namespace kestrel::e2e {
namespace {

TEST(HelpTest, NoCommandPrintsUsageAndExits2) {
  const CliResult r = RunKestrel({});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(Contains(r.err, "usage: kestrel COMMAND [OPTIONS]\n")) << r.err;
  EXPECT_EQ(r.out, "");
}

TEST(HelpTest, UsageListsEveryVerbAndTheExitCodes) {
  for (const std::string flag : {"help", "--help", "-h"}) {
    const CliResult r = RunKestrel({flag});
    EXPECT_EQ(r.exit_code, 0) << flag;
    EXPECT_EQ(r.err, "") << flag;
    for (const std::string verb : {"capture", "stats", "syscalls", "settings", "recorder", "dump",
                                   "bench", "completion", "version", "help"}) {
      EXPECT_TRUE(Contains(r.out, "\n  " + verb + " ")) << flag << " lacks " << verb << ":\n"
                                                        << r.out;
    }
    EXPECT_TRUE(Contains(r.out,
                         "exit codes:\n"
                         "  0  ok\n"
                         "  1  the run failed (privileges, BTF, kernel, no pinned capture)\n"
                         "  2  usage error: the command line is wrong and nothing was done\n"))
        << r.out;
  }
}

TEST(HelpTest, UnknownCommandExits2NamingIt) {
  const CliResult r = RunKestrel({"frobnicate"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "kestrel: unknown command \"frobnicate\"\n"
            "Run 'kestrel --help' for the commands.\n");
  EXPECT_EQ(r.out, "");
}

TEST(HelpTest, UnknownTopLevelFlagExits2NamingIt) {
  const CliResult r = RunKestrel({"--frobnicate"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "kestrel: unknown option \"--frobnicate\"\n"
            "Run 'kestrel --help' for the commands.\n");
}

TEST(HelpTest, HostileArgumentsAreEscapedInErrors) {
  const CliResult r = RunKestrel({"fro\x1b[2Jb"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "kestrel: unknown command \"fro\\x1b[2Jb\"\n"
            "Run 'kestrel --help' for the commands.\n");
}

TEST(HelpTest, UnknownFlagOfAVerbExits2NamingIt) {
  const CliResult r = RunKestrel({"capture", "--bogus"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "kestrel capture: unknown option \"--bogus\"\n"
            "Run 'kestrel capture --help' for the options.\n");
  EXPECT_EQ(r.out, "");
}

TEST(HelpTest, VersionPrintsKestrelAndLibpmanAbi) {
  const std::string expected = "kestrel 0.1.0\nlibpman ABI 2\n";
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"--version"}, {"version"}}) {
    const CliResult r = RunKestrel(args);
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_EQ(r.out, expected);
    EXPECT_EQ(r.err, "");
  }
  EXPECT_EQ(RunKestrel({"version", "extra"}).exit_code, 2);
}

// Every verb and sub-verb this suite owns: --help and -h exit 0 on stdout
// with a usage line and an example.
const std::vector<std::vector<std::string>> kHelpTargets = {{"capture"},
                                                            {"stats"},
                                                            {"syscalls"},
                                                            {"syscalls", "coverage"},
                                                            {"syscalls", "list"},
                                                            {"syscalls", "enable"},
                                                            {"syscalls", "disable"},
                                                            {"syscalls", "drop-class"},
                                                            {"settings"},
                                                            {"settings", "get"},
                                                            {"settings", "set"},
                                                            {"completion"},
                                                            {"version"},
                                                            {"help"}};

std::string Joined(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& w : words) out += (out.empty() ? "" : " ") + w;
  return out;
}

TEST(HelpTest, EveryVerbAndSubVerbHasHelpWithAnExample) {
  for (const std::vector<std::string>& target : kHelpTargets) {
    for (const std::string flag : {"--help", "-h"}) {
      std::vector<std::string> args = target;
      args.push_back(flag);
      const CliResult r = RunKestrel(args);
      const std::string name = "kestrel " + Joined(target);
      EXPECT_EQ(r.exit_code, 0) << name << " " << flag;
      EXPECT_EQ(r.err, "") << name << " " << flag;
      EXPECT_TRUE(Contains(r.out, "Usage: " + name)) << name << ":\n" << r.out;
      EXPECT_TRUE(Contains(r.out, "Example:\n  ")) << name << ":\n" << r.out;
    }
  }
}

TEST(HelpTest, HelpVerbIsTheVerbsHelp) {
  for (const std::vector<std::string>& target : kHelpTargets) {
    std::vector<std::string> via_help = {"help"};
    via_help.insert(via_help.end(), target.begin(), target.end());
    std::vector<std::string> via_flag = target;
    via_flag.push_back("--help");
    const CliResult a = RunKestrel(via_help);
    const CliResult b = RunKestrel(via_flag);
    EXPECT_EQ(a.exit_code, 0) << Joined(target);
    EXPECT_EQ(a.out, b.out) << Joined(target);
  }
  const CliResult r = RunKestrel({"help", "frobnicate"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(
      Contains(r.err, "kestrel help: \"frobnicate\" is not a command: use one of capture, "))
      << r.err;
}

TEST(HelpTest, CaptureHelpListsEveryFlag) {
  const CliResult r = RunKestrel({"capture", "--help"});
  for (const std::string flag :
       {"--syscalls", "--all", "--pid", "--count", "--duration", "--json", "--io-data",
        "--buffer-bytes", "--cpus-per-buffer", "--online-cpus-only", "--settings-storage", "--pin",
        "--pin-dir", "--lock-settings", "--list-events"}) {
    EXPECT_TRUE(Contains(r.out, "  " + flag + " ")) << flag << "\n" << r.out;
  }
}

}  // namespace
}  // namespace kestrel::e2e
