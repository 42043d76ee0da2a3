// How `kestrel capture` ends: by --count, --duration, SIGINT or SIGTERM,
// under load into a ring small enough to drop, it shows or counts every
// record the probe wrote, and its stats add up exactly.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/syscall.h>
#include <algorithm>

#include <cinttypes>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "kestrel_process.h"
#include "syscall_children.h"

namespace kestrel::e2e {
namespace {

// The accounting line of the final stats, on stderr.
struct Accounting {
  uint64_t attempted = 0, consumed = 0, undecodable = 0, left_unread = 0, dropped = 0, written = 0;
  // Of consumed: kept for the thread table and not shown (other processes'
  // clone/exec/exit records while the test runs).
  uint64_t state_only = 0;
};

// "--- kestrel thread table: N records consumed for it and not shown; ..."
uint64_t ParseStateOnly(const std::string& err) {
  const size_t at = err.find("--- kestrel thread table: ");
  uint64_t n = 0;
  if (at != std::string::npos) {
    std::sscanf(err.c_str() + at, "--- kestrel thread table: %" SCNu64, &n);
  }
  return n;
}

std::optional<Accounting> ParseAccounting(const std::string& err) {
  for (absl::string_view piece : absl::StrSplit(err, '\n')) {
    if (!absl::StartsWith(piece, "records attempted ")) continue;
    const std::string line(piece);
    Accounting a;
    if (std::sscanf(line.c_str(),
                    "records attempted %" SCNu64 ": consumed %" SCNu64 " (undecodable %" SCNu64
                    "), left unread %" SCNu64 ", dropped %" SCNu64,
                    &a.attempted, &a.consumed, &a.undecodable, &a.left_unread, &a.dropped) != 5) {
      return std::nullopt;
    }
    const size_t written = line.find("; written ");
    if (written == std::string::npos ||
        std::sscanf(line.c_str() + written, "; written %" SCNu64, &a.written) != 1) {
      return std::nullopt;
    }
    a.state_only = ParseStateOnly(err);
    return a;
  }
  return std::nullopt;
}

size_t CountLines(const std::string& out, const std::string& needle) {
  size_t n = 0;
  for (absl::string_view line : absl::StrSplit(out, '\n')) n += absl::StrContains(line, needle);
  return n;
}

size_t CountRecordLines(const std::string& out) {
  size_t n = 0;
  for (absl::string_view line : absl::StrSplit(out, '\n', absl::SkipEmpty())) {
    n += !absl::StrContains(line, " --- DROPPED ");
  }
  return n;
}

// What every exit must leave: the stats line, adding up, and drops (the
// load is meant to overflow the ring, or the test proves little).
Accounting ExpectExactAccounting(const CliResult& r) {
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(absl::StrContains(r.err, "WARNING")) << r.err;
  const std::optional<Accounting> a = ParseAccounting(r.err);
  if (!a) {
    ADD_FAILURE() << "no accounting line in:\n" << r.err;
    return {};
  }
  EXPECT_EQ(a->consumed + a->left_unread, a->written) << r.err;
  EXPECT_EQ(a->consumed + a->left_unread + a->dropped, a->attempted) << r.err;
  EXPECT_GT(a->dropped, 0u) << "no drops: the load did not overflow the ring\n" << r.err;
  EXPECT_EQ(a->undecodable, 0u) << r.err;
  return *a;
}

const std::vector<std::string> kLoadedCapture = {"capture", "--syscalls", "getppid",
                                                 "--buffer-bytes", "4096"};

std::vector<std::string> With(std::vector<std::string> args, std::vector<std::string> more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

TEST(CaptureExitTest, CountStopsAtExactlyNSyscallEventsAndCountsTheRestAsLeftUnread) {
  SyscallHammer hammer(SYS_getppid);
  // Whether records are still in the rings when the 50th event is read
  // depends on the scheduler; every run must add up exactly, and at least
  // one of a few must have had records left to count as left unread.
  uint64_t most_left_unread = 0;
  for (int run = 0; run < 5 && most_left_unread == 0; ++run) {
    const CliResult r = RunKestrel(With(kLoadedCapture, {"--count", "50"}));
    const Accounting a = ExpectExactAccounting(r);
    EXPECT_EQ(CountLines(r.out, " getppid("), 50u) << r.out;
    // Control records print without counting toward the 50; every record
    // line shown is one consumed, and so is every record kept only for the
    // thread table.
    EXPECT_EQ(CountRecordLines(r.out) + a.state_only, a.consumed) << r.out;
    most_left_unread = std::max(most_left_unread, a.left_unread);
  }
  EXPECT_GT(most_left_unread, 0u) << "the rings were never full at exit";
}

TEST(CaptureExitTest, DurationShowsEverythingWrittenBeforeTheEnd) {
  SyscallHammer hammer(SYS_getppid);
  const CliResult r = RunKestrel(With(kLoadedCapture, {"--duration", "0.5"}));
  const Accounting a = ExpectExactAccounting(r);
  EXPECT_EQ(a.left_unread, 0u);
  EXPECT_EQ(CountRecordLines(r.out) + a.state_only, a.consumed);
}

void ExpectCleanStopOnSignal(int sig) {
  SyscallHammer hammer(SYS_getppid);
  KestrelProcess capture(kLoadedCapture);
  ASSERT_TRUE(capture.WaitForLine(" getppid(", std::chrono::seconds(20)));
  capture.Signal(sig);
  const CliResult r = capture.Wait();
  const Accounting a = ExpectExactAccounting(r);
  EXPECT_EQ(a.left_unread, 0u);
  EXPECT_EQ(CountRecordLines(r.out) + a.state_only, a.consumed);
  // A signal is how a capture is stopped, not an error to report.
  EXPECT_FALSE(absl::StrContains(r.err, "Interrupted system call")) << r.err;
}

TEST(CaptureExitTest, SigintStopsCleanlyAndShowsWhatWasLeft) { ExpectCleanStopOnSignal(SIGINT); }

TEST(CaptureExitTest, SigtermStopsCleanlyAndShowsWhatWasLeft) { ExpectCleanStopOnSignal(SIGTERM); }

TEST(CaptureExitTest, SigintWhileIdleExitsZeroWithoutAnEintrLine) {
  // No load: the capture sleeps in its wait when the signal comes. The
  // child's first captured getppid says the capture is running.
  TaggedSyscallChild child;
  KestrelProcess capture(
      {"capture", "--syscalls", "getppid", "--pid", std::to_string(child.pid())});
  bool capturing = false;
  for (uint32_t tag = 1; !capturing && tag < 100; ++tag) {
    ASSERT_TRUE(child.Round(tag));
    capturing = capture.WaitForLine(" getppid(", std::chrono::milliseconds(200)).has_value();
  }
  ASSERT_TRUE(capturing);
  capture.Signal(SIGINT);
  const CliResult r = capture.Wait();
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(absl::StrContains(r.err, "Interrupted system call")) << r.err;
  EXPECT_TRUE(absl::StrContains(r.err, "records attempted")) << r.err;
}

}  // namespace
}  // namespace kestrel::e2e
