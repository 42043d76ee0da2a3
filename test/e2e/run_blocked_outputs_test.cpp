// `kestrel run` with output channels that block (issue 21): an HTTP
// endpoint that accepts and never answers, and a program that does not read
// its stdin until told to. Capture and the other channels go on; each
// stuck channel's queue drops its oldest alerts and counts them, so when
// the program finally reads, what it gets after the pipe's backlog is the
// newest alerts.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <regex>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "kestrel_process.h"
#include "pin_dir_guard.h"
#include "run_triggers.h"

namespace kestrel::e2e {
namespace {

std::vector<std::string> ReadLines(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

struct ChannelCounts {
  uint64_t sent = 0, failed = 0, dropped = 0;
  bool found = false;
};

// One channel's figures from the final stats line ("NAME sent S failed F
// dropped D,").
ChannelCounts CountsOf(const std::string& err, const std::string& name) {
  std::smatch m;
  ChannelCounts c;
  const std::regex re(" " + name + " sent ([0-9]+) failed ([0-9]+) dropped ([0-9]+),");
  if (!std::regex_search(err, m, re)) return c;
  c.found = absl::SimpleAtoi(m[1].str(), &c.sent) && absl::SimpleAtoi(m[2].str(), &c.failed) &&
            absl::SimpleAtoi(m[3].str(), &c.dropped);
  return c;
}

uint64_t AlertsTotal(const std::string& err) {
  std::smatch m;
  uint64_t n = 0;
  if (std::regex_search(err, m, std::regex(", alerts ([0-9]+)")))
    (void)absl::SimpleAtoi(m[1].str(), &n);
  return n;
}

TEST(RunBlockedOutputsTest, StuckChannelsDropTheirOldestWhileCaptureAndTheOthersGoOn) {
  ASSERT_EQ(geteuid(), 0u) << "kestrel tests never skip: run as root";
  RunTempDir dir;
  // Listens, never accepts: the kernel completes the handshake, the
  // request is queued, no answer ever comes.
  LoopbackListener silent_http;
  const std::string go = dir.File("program-may-read");
  const std::string program_out = dir.File("program-got");
  const std::string file_out = dir.File("alerts.json");
  const std::string rules = dir.File("rules.yaml");
  WriteWhole(rules, OpenRule(dir.path()));
  constexpr int kQueue = 64;
  KestrelProcess run(
      {"run",
       "-r",
       rules,
       "--no-pin",
       "-o",
       "json_output=true",
       "-o",
       absl::StrCat("outputs_queue.capacity=", kQueue),
       "-o",
       "output_timeout=600000",
       "-o",
       "http_output.enabled=true",
       "-o",
       absl::StrCat("http_output.url=http://127.0.0.1:", silent_http.port(), "/alerts"),
       "-o",
       "program_output.enabled=true",
       "-o",
       "program_output.keep_alive=true",
       "-o",
       absl::StrCat("program_output.program='while [ ! -e ", go,
                    " ]; do sleep 0.05; done; exec cat > ", program_out, "'"),
       "-o",
       "file_output.enabled=true",
       "-o",
       "file_output.keep_alive=true",
       "-o",
       absl::StrCat("file_output.filename=", file_out)});
  ASSERT_TRUE(WaitUntilAlerting(run, dir));

  // Far more than the program's pipe (64 KiB) and queue hold.
  constexpr int kMarks = 1500;
  // In steps well under the queue, each waited for on stdout: the healthy
  // channels keep up, the stuck ones fall behind by the whole run.
  constexpr int kStep = kQueue / 2;
  for (int i = 0; i < kMarks; ++i) {
    const std::string mark = dir.File(absl::StrCat("mark-", i, "-end"));
    OpenFile(mark);
    if ((i + 1) % kStep == 0 || i + 1 == kMarks) {
      ASSERT_TRUE(run.WaitForLine(mark + "\"", std::chrono::seconds(20))) << "stdout fell behind";
    }
  }
  const std::string last = dir.File(absl::StrCat("mark-", kMarks - 1, "-end"));
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (std::chrono::steady_clock::now() < deadline &&
         CountLinesWith(ReadLines(file_out), "-end\"") < kMarks) {
    usleep(50 * 1000);
  }
  EXPECT_EQ(CountLinesWith(ReadLines(file_out), "-end\""), static_cast<size_t>(kMarks));

  // The program reads at last: the pipe's backlog, the alert its channel
  // was writing, then the newest kQueue alerts, all delivered before stop.
  WriteWhole(go, "");
  const auto read_deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (std::chrono::steady_clock::now() < read_deadline &&
         CountLinesWith(ReadLines(program_out), last + "\"") == 0) {
    usleep(50 * 1000);
  }
  const auto stop_start = std::chrono::steady_clock::now();
  run.Signal(SIGINT);
  const CliResult r = run.Wait(std::chrono::seconds(30));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  // The request in flight is cut short at stop, not waited out.
  EXPECT_LT(std::chrono::steady_clock::now() - stop_start, std::chrono::seconds(10));

  const uint64_t alerts = AlertsTotal(r.err);
  EXPECT_GE(alerts, static_cast<uint64_t>(kMarks)) << r.err;
  EXPECT_TRUE(absl::StrContains(r.err, "dropped 0 (ring full 0,")) << r.err;
  for (const char* name : {"stdout", "file"}) {
    const ChannelCounts c = CountsOf(r.err, name);
    ASSERT_TRUE(c.found) << name << ": " << r.err;
    EXPECT_EQ(c.sent, alerts) << name << ": " << r.err;
    EXPECT_EQ(c.failed + c.dropped, 0u) << name << ": " << r.err;
  }
  // The HTTP endpoint got nothing through: one request in flight, cut at
  // stop, the rest dropped oldest first, every alert counted once.
  const ChannelCounts http = CountsOf(r.err, "http");
  ASSERT_TRUE(http.found) << r.err;
  EXPECT_EQ(http.sent, 0u);
  EXPECT_EQ(http.sent + http.failed + http.dropped, alerts) << r.err;
  EXPECT_GE(http.dropped, alerts - kQueue - 1) << r.err;

  // The program got the oldest alerts the pipe held and then the newest
  // kQueue, the ones between were dropped and counted.
  const ChannelCounts program = CountsOf(r.err, "program");
  ASSERT_TRUE(program.found) << r.err;
  EXPECT_EQ(program.sent + program.failed + program.dropped, alerts) << r.err;
  EXPECT_EQ(program.failed, 0u);
  EXPECT_GT(program.dropped, 0u);
  const std::vector<std::string> got = ReadLines(program_out);
  EXPECT_EQ(got.size(), program.sent);
  ASSERT_GT(got.size(), static_cast<size_t>(kQueue));
  for (int i = 0; i < kQueue; ++i) {
    const std::string mark = dir.File(absl::StrCat("mark-", kMarks - kQueue + i, "-end\""));
    EXPECT_TRUE(absl::StrContains(got[got.size() - kQueue + i], mark))
        << "line " << got.size() - kQueue + i << " is " << got[got.size() - kQueue + i];
  }
  // Before those, the channel's backlog ends well before the newest ones.
  const std::string before_newest = got[got.size() - kQueue - 1];
  EXPECT_FALSE(absl::StrContains(before_newest,
                                 dir.File(absl::StrCat("mark-", kMarks - kQueue - 1, "-end\""))))
      << before_newest;
}

// The processes whose command line holds `mark`.
int ProcessesWith(const std::string& mark) {
  int n = 0;
  for (const std::string& pid : DirEntries("/proc")) {
    if (pid.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream in("/proc/" + pid + "/cmdline");
    std::string cmdline((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::replace(cmdline.begin(), cmdline.end(), '\0', ' ');
    if (absl::StrContains(cmdline, mark)) ++n;
  }
  return n;
}

// Issue 35: a kept-alive program whose shell started a child that never
// reads held the pipe after the shell was killed, and SIGTERM left Kestrel
// running. The program runs in a process group killed as a whole: the
// stop takes under 2 s and leaves no process behind.
TEST(RunBlockedOutputsTest, AProgramThatNeverReadsNeitherHoldsTheStopNorOutlivesIt) {
  ASSERT_EQ(geteuid(), 0u) << "kestrel tests never skip: run as root";
  RunTempDir dir;
  const std::string rules = dir.File("rules.yaml");
  WriteWhole(rules, OpenRule(dir.path()));
  const std::string sleeper = "sleep 987.25";  // a mark no other process has
  KestrelProcess run({"run", "-r", rules, "--no-pin", "-o", "program_output.enabled=true", "-o",
                      "program_output.keep_alive=true", "-o",
                      absl::StrCat("program_output.program='", sleeper, "; true'")});
  ASSERT_TRUE(WaitUntilAlerting(run, dir));
  // Enough to fill the pipe (64 KiB) and the channel's batch behind it.
  constexpr int kMarks = 1500;
  for (int i = 0; i < kMarks; ++i) {
    const std::string mark = dir.File(absl::StrCat("mark-", i, "-end"));
    OpenFile(mark);
    if ((i + 1) % 100 == 0) {
      ASSERT_TRUE(run.WaitForLine(mark, std::chrono::seconds(20)));
    }
  }
  EXPECT_GE(ProcessesWith(sleeper), 1);  // the shell, and sleep
  const auto stop_start = std::chrono::steady_clock::now();
  run.Signal(SIGTERM);
  const CliResult r = run.Wait(std::chrono::seconds(30));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_LT(std::chrono::steady_clock::now() - stop_start, std::chrono::seconds(2)) << r.err;
  const ChannelCounts program = CountsOf(r.err, "program");
  ASSERT_TRUE(program.found) << r.err;
  // What the pipe took counts as sent; the rest failed at the kill or was
  // dropped from the queue, every alert counted once.
  EXPECT_EQ(program.sent + program.failed + program.dropped, AlertsTotal(r.err)) << r.err;
  EXPECT_GT(program.failed + program.dropped, 0u) << r.err;
  EXPECT_EQ(ProcessesWith(sleeper), 0);
}

// Without keep_alive each alert runs the program once; what its shell
// leaves running in the background is killed with it.
TEST(RunBlockedOutputsTest, AProgramRunPerAlertLeavesNoProcessBehind) {
  ASSERT_EQ(geteuid(), 0u) << "kestrel tests never skip: run as root";
  RunTempDir dir;
  const std::string rules = dir.File("rules.yaml");
  WriteWhole(rules, OpenRule(dir.path()));
  const std::string sleeper = "sleep 986.25";
  const std::string got = dir.File("program-got");
  KestrelProcess run({"run", "-r", rules, "--no-pin", "-o", "program_output.enabled=true", "-o",
                      absl::StrCat("program_output.program='cat >> ", got, "; ", sleeper, " &'")});
  ASSERT_TRUE(WaitUntilAlerting(run, dir));
  const std::string last = dir.File("mark-last-end");
  for (int i = 0; i < 5; ++i) OpenFile(dir.File(absl::StrCat("mark-", i, "-end")));
  OpenFile(last);
  ASSERT_TRUE(run.WaitForLine(last, std::chrono::seconds(20)));
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (std::chrono::steady_clock::now() < deadline && CountLinesWith(ReadLines(got), last) == 0) {
    usleep(20 * 1000);
  }
  ASSERT_EQ(CountLinesWith(ReadLines(got), last), 1u);
  run.Signal(SIGINT);
  const CliResult r = run.Wait();
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(ProcessesWith(sleeper), 0);
}

// Issue 35: a file output on a full disk was counted as sent (the write
// that failed was a flush) and said nothing until the exit stats. Each
// failure is counted as failed and told on stderr at once.
TEST(RunBlockedOutputsTest, AFullDiskIsCountedAsFailedAndToldOnStderr) {
  ASSERT_EQ(geteuid(), 0u) << "kestrel tests never skip: run as root";
  RunTempDir dir;
  const std::string rules = dir.File("rules.yaml");
  WriteWhole(rules, OpenRule(dir.path()));
  KestrelProcess run({"run", "-r", rules, "--no-pin", "-o", "file_output.enabled=true", "-o",
                      "file_output.keep_alive=true", "-o", "file_output.filename=/dev/full"});
  ASSERT_TRUE(WaitUntilAlerting(run, dir));
  run.Signal(SIGINT);
  const CliResult r = run.Wait();
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(
      absl::StrContains(r.err, "kestrel run: file output failed: write: No space left on device\n"))
      << r.err;
  const ChannelCounts file = CountsOf(r.err, "file");
  ASSERT_TRUE(file.found) << r.err;
  EXPECT_EQ(file.sent, 0u) << r.err;
  EXPECT_GE(file.failed, 1u) << r.err;
  EXPECT_EQ(file.sent + file.failed + file.dropped, AlertsTotal(r.err)) << r.err;
}

}  // namespace
}  // namespace kestrel::e2e
