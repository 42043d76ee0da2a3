// Bad command lines: each ends at once with exit 2, nothing on stdout, and
// on stderr one line naming the place and what is wrong, then a pointer to
// --help. None of these loads the probe.
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <string>
#include <vector>

#include "kestrel_process.h"

namespace kestrel::e2e {
namespace {

// Runs `args` and checks the whole of stderr: "PREFIX: what\nRun ...".
void ExpectUsageError(const std::vector<std::string>& args, const std::string& prefix,
                      const std::string& what) {
  const CliResult r = RunKestrel(args, std::chrono::seconds(20));
  std::string line;
  for (const std::string& a : args) line += a + " ";
  EXPECT_EQ(r.exit_code, 2) << line;
  EXPECT_EQ(r.out, "") << line;
  EXPECT_EQ(r.err, prefix + ": " + what + "\nRun '" + prefix + " --help' for the options.\n")
      << line;
}

void ExpectCaptureError(const std::vector<std::string>& flags, const std::string& what) {
  std::vector<std::string> args = {"capture"};
  args.insert(args.end(), flags.begin(), flags.end());
  ExpectUsageError(args, "kestrel capture", what);
}

TEST(UsageErrorsTest, BadValuesNameTheFlag) {
  ExpectCaptureError({"--count", "abc"}, "--count: \"abc\" is not a whole number");
  ExpectCaptureError({"--count", "0"}, "--count: must be at least 1");
  ExpectCaptureError({"--count"}, "--count: needs a value");
  ExpectCaptureError({"--pid", "abc"}, "--pid: \"abc\" is not a whole number");
  ExpectCaptureError({"--pid", "0"}, "--pid: must be a process id above 0");
  ExpectCaptureError({"--syscalls", "openat,nosuch"},
                     "--syscalls: unknown syscall \"nosuch\" at position 2 (see `kestrel "
                     "syscalls`)");
  ExpectCaptureError({"--settings-storage", "map"},
                     "--settings-storage: \"map\" is neither bss nor array");
  ExpectCaptureError({"--buffer-bytes", "huge"},
                     "--buffer-bytes: \"huge\" is not a size: use small, default, large, or bytes "
                     "such as 4M");
  ExpectCaptureError({"--cpus-per-buffer", "x"},
                     "--cpus-per-buffer: \"x\" is not auto or a number of CPUs per ring");
  ExpectCaptureError({"--pin-dir", ""}, "--pin-dir: needs a directory");
}

TEST(UsageErrorsTest, NonFiniteAndAbsurdDurationsAreRefused) {
  ExpectCaptureError({"--duration", "inf"},
                     "--duration: \"inf\" is not a positive number of seconds");
  ExpectCaptureError({"--duration", "nan"},
                     "--duration: \"nan\" is not a positive number of seconds");
  ExpectCaptureError({"--duration", "-1"},
                     "--duration: \"-1\" is not a positive number of seconds");
  ExpectCaptureError({"--duration", "1e10"},
                     "--duration: \"1e10\" is more than 30 days (2592000 seconds)");
  ExpectUsageError({"stats", "--duration", "inf"}, "kestrel stats",
                   "--duration: \"inf\" is not a positive number of seconds");
}

TEST(UsageErrorsTest, RingSizesNoRingCanTakeAreUsageErrors) {
  const std::string page = std::to_string(sysconf(_SC_PAGESIZE));
  ExpectCaptureError(
      {"--buffer-bytes", "3"},
      "--buffer-bytes: \"3\" is not a ring size: use a power of two from one page (" + page +
          ") to 2G");
  ExpectUsageError({"stats", "--buffer-bytes", "3M"}, "kestrel stats",
                   "--buffer-bytes: \"3M\" is not a ring size: use a power of two from one page (" +
                       page + ") to 2G");
}

TEST(UsageErrorsTest, MoreCpusPerBufferThanPossibleIsRefused) {
  std::ifstream possible_file("/sys/devices/system/cpu/possible");
  std::string list;
  ASSERT_TRUE(std::getline(possible_file, list));
  const int possible = std::stoi(list.substr(list.find_last_of(",-") + 1)) + 1;
  ExpectCaptureError({"--cpus-per-buffer", "999"}, "--cpus-per-buffer: \"999\" is more than the " +
                                                       std::to_string(possible) +
                                                       " possible CPUs of this machine");
}

TEST(UsageErrorsTest, RepeatedFlagsAreRefused) {
  ExpectCaptureError({"--count", "1", "--count", "2"}, "--count: given more than once");
  ExpectCaptureError({"--json", "--json"}, "--json: given more than once");
  ExpectCaptureError({"--pin-dir", "/a", "--pin-dir", "/b"}, "--pin-dir: given more than once");
  ExpectUsageError({"syscalls", "list", "--pin-dir", "/a", "--pin-dir", "/b"},
                   "kestrel syscalls list", "--pin-dir: given more than once");
}

TEST(UsageErrorsTest, MeaninglessCombinationsAreRefused) {
  ExpectCaptureError({"--list-events", "--count", "3"},
                     "--list-events and --count cannot be used together");
  ExpectCaptureError({"--json", "--list-events"},
                     "--list-events and --json cannot be used together");
  ExpectCaptureError({"--syscalls", "openat", "--all"},
                     "--syscalls and --all cannot be used together");
  ExpectCaptureError({"--pin", "--pin-dir", "/sys/fs/bpf/x"},
                     "--pin and --pin-dir cannot be used together");
  ExpectUsageError({"stats", "--pin"}, "kestrel stats", "unknown option \"--pin\"");
  ExpectUsageError({"stats", "--json"}, "kestrel stats", "unknown option \"--json\"");
  ExpectUsageError({"stats", "--count", "3"}, "kestrel stats", "unknown option \"--count\"");
}

TEST(UsageErrorsTest, SyscallsSubCommandErrors) {
  ExpectUsageError({"syscalls", "frob"}, "kestrel syscalls",
                   "unknown sub-command \"frob\": use one of coverage, list, enable, disable, "
                   "drop-class");
  ExpectUsageError({"syscalls", "enable"}, "kestrel syscalls enable", "needs NAME");
  ExpectUsageError({"syscalls", "enable", "nosuch"}, "kestrel syscalls enable",
                   "NAME: unknown syscall \"nosuch\" at position 1 (see `kestrel syscalls`)");
  ExpectUsageError({"syscalls", "drop-class", "sometimes", "openat"}, "kestrel syscalls drop-class",
                   "CLASS: \"sometimes\" is not sampled, never or always");
  ExpectUsageError({"syscalls", "list", "extra"}, "kestrel syscalls list",
                   "unexpected argument \"extra\"");
  ExpectUsageError({"syscalls", "coverage", "--pin-dir", "/x"}, "kestrel syscalls coverage",
                   "unknown option \"--pin-dir\"");
}

TEST(UsageErrorsTest, SettingsSubCommandErrors) {
  ExpectUsageError({"settings"}, "kestrel settings", "needs one of get, set");
  ExpectUsageError({"settings", "frob"}, "kestrel settings",
                   "unknown sub-command \"frob\": use one of get, set");
  ExpectUsageError({"settings", "set"}, "kestrel settings set", "needs KEY=VALUE");
  ExpectUsageError({"settings", "set", "sampling_ratio"}, "kestrel settings set",
                   "KEY=VALUE: \"sampling_ratio\" is not KEY=VALUE; nothing was changed");
  const CliResult r = RunKestrel({"settings", "get", "no_such_key"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("kestrel settings get: KEY: unknown setting \"no_such_key\""),
            std::string::npos)
      << r.err;
}

TEST(UsageErrorsTest, CompletionNeedsAKnownShell) {
  ExpectUsageError({"completion"}, "kestrel completion", "needs SHELL");
  ExpectUsageError({"completion", "zsh"}, "kestrel completion", "SHELL: \"zsh\" is not bash");
}

}  // namespace
}  // namespace kestrel::e2e
