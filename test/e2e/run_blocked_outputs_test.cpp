// `kestrel run` with output channels that block (issue 21): an HTTP
// endpoint that accepts and never answers, and a program that does not read
// its stdin until told to. Capture and the other channels go on; each
// stuck channel's queue drops its oldest alerts and counts them, so when
// the program finally reads, what it gets after the pipe's backlog is the
// newest alerts. And channels that fail (issue 35): a full disk, a program
// that fails or is missing, syslog with no socket, each failure counted by
// cause in the final stats and told on stderr, never counted as sent.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
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

// A cause's count, 0 when it is not there.
uint64_t CountOf(const std::map<std::string, uint64_t>& causes, const std::string& cause) {
  const auto it = causes.find(cause);
  return it == causes.end() ? 0 : it->second;
}

struct ChannelCounts {
  uint64_t sent = 0, failed = 0, dropped = 0;
  std::map<std::string, uint64_t> failed_by_cause, dropped_by_cause;
  bool found = false;

  uint64_t FailedBy(const std::string& cause) const { return CountOf(failed_by_cause, cause); }
  uint64_t DroppedBy(const std::string& cause) const { return CountOf(dropped_by_cause, cause); }
};

// "write error: No space left on device 3, timeout 1" by cause; false when
// a part has no count.
bool ParseCauses(const std::string& text, std::map<std::string, uint64_t>& causes) {
  if (text.empty()) return true;
  for (absl::string_view part : absl::StrSplit(text, ", ")) {
    const size_t space = part.rfind(' ');
    uint64_t n = 0;
    if (space == absl::string_view::npos || !absl::SimpleAtoi(part.substr(space + 1), &n)) {
      return false;
    }
    causes[std::string(part.substr(0, space))] += n;
  }
  return true;
}

// One channel's figures from the final stats line ("NAME sent S failed F
// (CAUSE N, ...) dropped D (CAUSE N, ...),", the causes there only when
// there are any).
ChannelCounts CountsOf(const std::string& err, const std::string& name) {
  std::smatch m;
  ChannelCounts c;
  const std::regex re(
      " " + name +
      R"( sent ([0-9]+) failed ([0-9]+)(?: \(([^)]*)\))? dropped ([0-9]+)(?: \(([^)]*)\))?,)");
  if (!std::regex_search(err, m, re)) return c;
  c.found = absl::SimpleAtoi(m[1].str(), &c.sent) && absl::SimpleAtoi(m[2].str(), &c.failed) &&
            absl::SimpleAtoi(m[4].str(), &c.dropped) &&
            ParseCauses(m[3].str(), c.failed_by_cause) &&
            ParseCauses(m[5].str(), c.dropped_by_cause);
  return c;
}

uint64_t Sum(const std::map<std::string, uint64_t>& causes) {
  uint64_t n = 0;
  for (const auto& [cause, count] : causes) n += count;
  return n;
}

uint64_t AlertsTotal(const std::string& err) {
  std::smatch m;
  uint64_t n = 0;
  if (std::regex_search(err, m, std::regex(", alerts ([0-9]+)")))
    (void)absl::SimpleAtoi(m[1].str(), &n);
  return n;
}

// Each test runs as root in a directory of its own, with a rule that
// alerts on the marker files it opens there.
class RunBlockedOutputsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(geteuid(), 0u) << "kestrel tests never skip: run as root";
    WriteWhole(rules_, OpenRule(dir_.path()));
  }

  // Starts `kestrel run` on the rule, unpinned, with each of `settings`
  // as `-o KEY=VALUE`, and waits until it alerts. Use it under
  // ASSERT_NO_FATAL_FAILURE.
  void Start(const std::vector<std::string>& settings, std::optional<RunAs> as = std::nullopt) {
    std::vector<std::string> args = {"run", "-r", rules_, "--no-pin"};
    for (const std::string& setting : settings) {
      args.push_back("-o");
      args.push_back(setting);
    }
    run_ = std::make_unique<KestrelProcess>(args, as);
    ASSERT_TRUE(WaitUntilAlerting(*run_, dir_)) << "no alert from kestrel run";
  }

  // Opens marker files "mark-I-end" for I in [0, n), and every `step`
  // (and at the last) waits for its alert on stdout.
  void OpenMarks(int n, int step) {
    for (int i = 0; i < n; ++i) {
      const std::string mark = dir_.File(absl::StrCat("mark-", i, "-end"));
      OpenFile(mark);
      if ((i + 1) % step == 0 || i + 1 == n) {
        ASSERT_TRUE(run_->WaitForLine(mark, std::chrono::seconds(20))) << "stdout fell behind";
      }
    }
  }

  // Stops the run with `sig` and returns what it left; it must exit 0.
  CliResult Stop(int sig, std::chrono::milliseconds timeout = std::chrono::seconds(30)) {
    run_->Signal(sig);
    CliResult r = run_->Wait(timeout);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return r;
  }

  RunTempDir dir_;
  const std::string rules_ = dir_.File("rules.yaml");
  std::unique_ptr<KestrelProcess> run_;
};

TEST_F(RunBlockedOutputsTest, StuckChannelsDropTheirOldestWhileCaptureAndTheOthersGoOn) {
  // Listens, never accepts: the kernel completes the handshake, the
  // request is queued, no answer ever comes.
  LoopbackListener silent_http;
  const std::string go = dir_.File("program-may-read");
  const std::string program_out = dir_.File("program-got");
  const std::string file_out = dir_.File("alerts.json");
  constexpr int kQueue = 64;
  ASSERT_NO_FATAL_FAILURE(Start({
      "json_output=true",
      absl::StrCat("outputs_queue.capacity=", kQueue),
      "output_timeout=600000",
      "http_output.enabled=true",
      absl::StrCat("http_output.url=http://127.0.0.1:", silent_http.port(), "/alerts"),
      "program_output.enabled=true",
      "program_output.keep_alive=true",
      absl::StrCat("program_output.program='while [ ! -e ", go,
                   " ]; do sleep 0.05; done; exec cat > ", program_out, "'"),
      "file_output.enabled=true",
      "file_output.keep_alive=true",
      absl::StrCat("file_output.filename=", file_out),
  }));
  // The HTTP channel comes from the network module, loaded for it.
  const std::string mapped = MappedFiles(run_->pid());
  EXPECT_TRUE(absl::StrContains(mapped, "/kestrel_network_outputs.so")) << mapped;
  EXPECT_TRUE(absl::StrContains(mapped, "libcurl")) << mapped;

  // Far more than the program's pipe (64 KiB) and queue hold, in steps
  // well under the queue, each waited for on stdout: the healthy channels
  // keep up, the stuck ones fall behind by the whole run.
  constexpr int kMarks = 1500;
  ASSERT_NO_FATAL_FAILURE(OpenMarks(kMarks, kQueue / 2));
  const std::string last = dir_.File(absl::StrCat("mark-", kMarks - 1, "-end"));
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
  const CliResult r = Stop(SIGINT);
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
  // By cause: the full queue dropped most, the stop the rest; the request
  // it cut off failed as such.
  EXPECT_GE(http.DroppedBy("queue full"), alerts - 2 * kQueue - 1) << r.err;
  EXPECT_EQ(Sum(http.dropped_by_cause), http.dropped) << r.err;
  EXPECT_EQ(http.FailedBy("cut off at shutdown"), http.failed) << r.err;

  // The program got the oldest alerts the pipe held and then the newest
  // kQueue, the ones between were dropped and counted.
  const ChannelCounts program = CountsOf(r.err, "program");
  ASSERT_TRUE(program.found) << r.err;
  EXPECT_EQ(program.sent + program.failed + program.dropped, alerts) << r.err;
  EXPECT_EQ(program.failed, 0u);
  EXPECT_GT(program.dropped, 0u);
  EXPECT_EQ(program.DroppedBy("queue full"), program.dropped) << r.err;
  const std::vector<std::string> got = ReadLines(program_out);
  EXPECT_EQ(got.size(), program.sent);
  ASSERT_GT(got.size(), static_cast<size_t>(kQueue));
  for (int i = 0; i < kQueue; ++i) {
    const std::string mark = dir_.File(absl::StrCat("mark-", kMarks - kQueue + i, "-end\""));
    EXPECT_TRUE(absl::StrContains(got[got.size() - kQueue + i], mark))
        << "line " << got.size() - kQueue + i << " is " << got[got.size() - kQueue + i];
  }
  // Before those, the channel's backlog ends well before the newest ones.
  const std::string before_newest = got[got.size() - kQueue - 1];
  EXPECT_FALSE(absl::StrContains(before_newest,
                                 dir_.File(absl::StrCat("mark-", kMarks - kQueue - 1, "-end\""))))
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
TEST_F(RunBlockedOutputsTest, AProgramThatNeverReadsNeitherHoldsTheStopNorOutlivesIt) {
  const std::string sleeper = "sleep 987.25";  // a mark no other process has
  ASSERT_NO_FATAL_FAILURE(Start({"program_output.enabled=true", "program_output.keep_alive=true",
                                 absl::StrCat("program_output.program='", sleeper, "; true'")}));
  // Enough to fill the pipe (64 KiB) and the channel's batch behind it.
  ASSERT_NO_FATAL_FAILURE(OpenMarks(1500, 100));
  EXPECT_GE(ProcessesWith(sleeper), 1);  // the shell, and sleep
  const auto stop_start = std::chrono::steady_clock::now();
  const CliResult r = Stop(SIGTERM);
  EXPECT_LT(std::chrono::steady_clock::now() - stop_start, std::chrono::seconds(2)) << r.err;
  const ChannelCounts program = CountsOf(r.err, "program");
  ASSERT_TRUE(program.found) << r.err;
  // What the pipe took counts as sent; the rest failed at the kill or was
  // dropped from the queue, every alert counted once, by cause.
  EXPECT_EQ(program.sent + program.failed + program.dropped, AlertsTotal(r.err)) << r.err;
  EXPECT_GT(program.failed + program.dropped, 0u) << r.err;
  EXPECT_EQ(program.FailedBy("cut off at shutdown"), program.failed) << r.err;
  EXPECT_EQ(program.DroppedBy("queue full") + program.DroppedBy("closed at shutdown"),
            program.dropped)
      << r.err;
  EXPECT_EQ(ProcessesWith(sleeper), 0);
}

// Without keep_alive each alert runs the program once; what its shell
// leaves running in the background is killed with it.
TEST_F(RunBlockedOutputsTest, AProgramRunPerAlertLeavesNoProcessBehind) {
  const std::string sleeper = "sleep 986.25";
  const std::string got = dir_.File("program-got");
  ASSERT_NO_FATAL_FAILURE(
      Start({"program_output.enabled=true",
             absl::StrCat("program_output.program='cat >> ", got, "; ", sleeper, " &'")}));
  const std::string last = dir_.File("mark-last-end");
  for (int i = 0; i < 5; ++i) OpenFile(dir_.File(absl::StrCat("mark-", i, "-end")));
  OpenFile(last);
  ASSERT_TRUE(run_->WaitForLine(last, std::chrono::seconds(20)));
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (std::chrono::steady_clock::now() < deadline && CountLinesWith(ReadLines(got), last) == 0) {
    usleep(20 * 1000);
  }
  ASSERT_EQ(CountLinesWith(ReadLines(got), last), 1u);
  Stop(SIGINT);
  EXPECT_EQ(ProcessesWith(sleeper), 0);
}

// Issue 35: a file output on a full disk was counted as sent (the write
// that failed was a flush) and said nothing until the exit stats; a
// program that failed and syslog with no /dev/log counted as sent. Each
// failure is counted as failed, by cause, and told on stderr at once with
// its cause.
TEST_F(RunBlockedOutputsTest, FailedDeliveriesAreCountedByCauseAndToldOnStderr) {
  RunAs without_syslog;
  without_syslog.no_syslog_socket = true;
  ASSERT_NO_FATAL_FAILURE(
      Start({"file_output.enabled=true", "file_output.keep_alive=true",
             "file_output.filename=/dev/full", "program_output.enabled=true",
             "program_output.program='cat > /dev/null; exit 3'", "syslog_output.enabled=true"},
            without_syslog));
  ASSERT_NO_FATAL_FAILURE(OpenMarks(5, 5));
  const CliResult r = Stop(SIGINT);
  const uint64_t alerts = AlertsTotal(r.err);
  EXPECT_GE(alerts, 6u) << r.err;  // the marks, and the first one waited for
  // The first failure of each channel, at once.
  EXPECT_TRUE(absl::StrContains(
      r.err, "kestrel run: file output failed (write error): write: No space left on device\n"))
      << r.err;
  EXPECT_TRUE(absl::StrContains(r.err,
                                "kestrel run: program output failed (nonzero exit): program "
                                "output: sh -c cat > /dev/null; exit 3 exited with 3\n"))
      << r.err;
  EXPECT_TRUE(absl::StrContains(r.err,
                                "kestrel run: syslog output failed (connect error): "
                                "syslog: /dev/log: "))
      << r.err;

  const ChannelCounts file = CountsOf(r.err, "file");
  ASSERT_TRUE(file.found) << r.err;
  EXPECT_EQ(file.sent, 0u) << r.err;
  EXPECT_EQ(file.failed, alerts) << r.err;
  EXPECT_EQ(file.failed_by_cause,
            (std::map<std::string, uint64_t>{{"write error: No space left on device", alerts}}))
      << r.err;
  EXPECT_TRUE(absl::StrContains(
      r.err, absl::StrCat(" file sent 0 failed ", alerts, " (write error: No space left on device ",
                          alerts, ") dropped 0,")))
      << r.err;

  const ChannelCounts program = CountsOf(r.err, "program");
  ASSERT_TRUE(program.found) << r.err;
  EXPECT_EQ(program.sent, 0u) << r.err;
  EXPECT_EQ(program.failed, alerts) << r.err;
  EXPECT_EQ(program.failed_by_cause, (std::map<std::string, uint64_t>{{"nonzero exit", alerts}}))
      << r.err;

  // No socket at all (ENOENT), or, where the host has one, /dev/null
  // over it (ECONNREFUSED): a connect error either way.
  const ChannelCounts syslog = CountsOf(r.err, "syslog");
  ASSERT_TRUE(syslog.found) << r.err;
  EXPECT_EQ(syslog.sent, 0u) << r.err;
  EXPECT_EQ(syslog.failed, alerts) << r.err;
  ASSERT_EQ(syslog.failed_by_cause.size(), 1u) << r.err;
  const auto& [syslog_cause, syslog_failed] = *syslog.failed_by_cause.begin();
  EXPECT_TRUE(syslog_cause == "connect error: No such file or directory" ||
              syslog_cause == "connect error: Connection refused")
      << syslog_cause;
  EXPECT_EQ(syslog_failed, alerts);
  for (const ChannelCounts* c : {&file, &program, &syslog}) {
    EXPECT_EQ(c->dropped, 0u) << r.err;
    EXPECT_TRUE(c->dropped_by_cause.empty()) << r.err;
  }
}

// A program that cannot be found: sh's 127, told apart from a program that
// ran and failed.
TEST_F(RunBlockedOutputsTest, AMissingProgramIsCountedAsNotFound) {
  ASSERT_NO_FATAL_FAILURE(Start(
      {"program_output.enabled=true", "program_output.program=kestrel-no-such-program-anywhere"}));
  ASSERT_NO_FATAL_FAILURE(OpenMarks(3, 3));
  const CliResult r = Stop(SIGINT);
  const uint64_t alerts = AlertsTotal(r.err);
  EXPECT_GE(alerts, 4u) << r.err;
  EXPECT_TRUE(absl::StrContains(r.err,
                                "kestrel run: program output failed (program not found): program "
                                "output: sh -c kestrel-no-such-program-anywhere exited with 127\n"))
      << r.err;
  EXPECT_TRUE(
      absl::StrContains(r.err, absl::StrCat(" program sent 0 failed ", alerts,
                                            " (program not found ", alerts, ") dropped 0,")))
      << r.err;
}

}  // namespace
}  // namespace kestrel::e2e
