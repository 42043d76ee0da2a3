// `kestrel capture` and `kestrel stats` through the binary: each flag's
// exit code and visible output, against a child that loops getppid. These
// load the real probe (ctest runs them under the probe lock).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "capture_test_support.h"
#include "getppid_child.h"
#include "kestrel_process.h"

namespace kestrel::e2e {
namespace {

bool EndsWith(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The text lines of the child's getppid events: "... COMM TID getppid(...) = PPID".
std::vector<std::string> GetppidLines(const std::string& out, pid_t child) {
  std::vector<std::string> found;
  for (const std::string& line : TerminatedLines(out)) {
    if (Contains(line, " " + std::string(kGetppidChildComm) + " " + std::to_string(child) +
                           " getppid(") &&
        EndsWith(line, ") = " + std::to_string(getpid()))) {
      found.push_back(line);
    }
  }
  return found;
}

std::vector<std::string> JsonGetppidLines(const std::string& out, pid_t child) {
  std::vector<std::string> found;
  const std::string who = "\"comm\":\"" + std::string(kGetppidChildComm) +
                          "\",\"tid\":" + std::to_string(child) +
                          ",\"pid\":" + std::to_string(child) + ",";
  for (const std::string& line : TerminatedLines(out)) {
    if (Contains(line, who) && Contains(line, ",\"syscall\":\"getppid\",\"id\":110,") &&
        EndsWith(line, ",\"ret\":" + std::to_string(getpid()) + "}")) {
      found.push_back(line);
    }
  }
  return found;
}

// Control records (settings_changed when the capture sets itself up) print
// too. Whether --count counts them is the capture loop's rule, so a run
// stopped by --count N prints N getppid lines, or N including those records.
size_t ControlLines(const std::string& out) {
  size_t n = 0;
  for (const std::string& line : TerminatedLines(out)) {
    n += Contains(line, " settings_changed generation ") ||
         Contains(line, "\"event\":\"settings_changed\"");
  }
  return n;
}

void ExpectCountedGetppid(size_t getppid_lines, const std::string& out, size_t count) {
  EXPECT_TRUE(getppid_lines == count || getppid_lines + ControlLines(out) == count)
      << getppid_lines << " getppid lines for --count " << count << ":\n"
      << out;
  EXPECT_GE(getppid_lines, 1u) << out;
}

TEST(CaptureTest, CountStopsAfterThatManyEventsOfThePid) {
  GetppidChild child;
  const CliResult r = RunKestrel(
      {"capture", "--syscalls", "getppid", "--pid", std::to_string(child.pid()), "--count", "3"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  ExpectCountedGetppid(GetppidLines(r.out, child.pid()).size(), r.out, 3);
  EXPECT_TRUE(Contains(r.err, "--- kestrel stats: ")) << r.err;
}

TEST(CaptureTest, JsonWithEveryRingAndStorageFlag) {
  GetppidChild child;
  const CliResult r = RunKestrel({"capture", "--json", "--syscalls", "getppid", "--pid",
                                  std::to_string(child.pid()), "--count", "3", "--io-data",
                                  "--buffer-bytes", "small", "--cpus-per-buffer", "0",
                                  "--online-cpus-only", "--settings-storage", "array"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  ExpectCountedGetppid(JsonGetppidLines(r.out, child.pid()).size(), r.out, 3);
  EXPECT_TRUE(Contains(r.err, "1 ring(s) x 1048576 bytes, one ring shared by all CPUs")) << r.err;
}

TEST(CaptureTest, AllWithDurationStopsOnTimeAndKeepsToThePid) {
  GetppidChild child;
  const CliResult r = RunKestrel(
      {"capture", "--all", "--json", "--pid", std::to_string(child.pid()), "--duration", "0.5",
       "--settings-storage", "bss", "--buffer-bytes", "4M", "--cpus-per-buffer", "1"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_GE(JsonGetppidLines(r.out, child.pid()).size(), 1u) << r.out;
  for (const std::string& line : TerminatedLines(r.out)) {
    if (Contains(line, "\"comm\":")) {
      EXPECT_TRUE(Contains(line, ",\"pid\":" + std::to_string(child.pid()) + ",")) << line;
    }
  }
  EXPECT_TRUE(Contains(r.err, " x 4194304 bytes, one ring per CPU;")) << r.err;
}

TEST(CaptureTest, PidOfNoProcessIsNotedAndTheCaptureRuns) {
  // Below the kernel's PID_MAX_LIMIT, so a process may still get it.
  const CliResult r =
      RunKestrel({"capture", "--syscalls", "getppid", "--pid", "4194000", "--duration", "0.3"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.find("kestrel capture: --pid 4194000: no such process exists yet; Kestrel "
                       "captures it if it appears\n"),
            0u)
      << r.err;
  EXPECT_TRUE(Contains(r.err, "--- kestrel stats: ")) << r.err;
}

TEST(CaptureTest, PidNoProcessCanHaveIsAUsageError) {
  const CliResult r = RunKestrel({"capture", "--pid", "999999999"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(r.err.substr(0, r.err.find('\n')),
            "kestrel capture: --pid: \"999999999\" is more than 4194303");
}

TEST(CaptureTest, PinDirAndLockSettingsRunAndLeaveNoPins) {
  GetppidChild child;
  const std::string dir = "/sys/fs/bpf/kestrel-e2e-capture-" + std::to_string(getpid());
  const CliResult r =
      RunKestrel({"capture", "--syscalls", "getppid", "--pid", std::to_string(child.pid()),
                  "--count", "2", "--pin-dir", dir, "--lock-settings"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  ExpectCountedGetppid(GetppidLines(r.out, child.pid()).size(), r.out, 2);
  struct stat st;
  EXPECT_NE(stat(dir.c_str(), &st), 0) << dir << " survived the capture";
}

TEST(CaptureTest, ListEventsPrintsTheSchemaWithoutLoading) {
  const CliResult r = RunKestrel({"capture", "--list-events"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_GT(TerminatedLines(r.out).size(), 10u);
}

TEST(StatsTest, PrintsTheRingsAndCountersOfItsRun) {
  const CliResult r = RunKestrel({"stats", "--duration", "0.2", "--syscalls", "getppid",
                                  "--buffer-bytes", "small", "--cpus-per-buffer", "0"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(
      r.out.find("--- kestrel stats: 1 ring(s) x 1048576 bytes, one ring shared by all CPUs; "), 0u)
      << r.out;
  EXPECT_TRUE(Contains(r.out, "\n  cpu 0: written ")) << r.out;
}

}  // namespace
}  // namespace kestrel::e2e
