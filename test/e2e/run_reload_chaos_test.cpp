// Issue 35's chaos test: while an open flood runs, the rules file of a
// running `kestrel run` is replaced 100 times, mostly with hostile content
// (huge, a 15,000-macro chain, a FIFO, a symlink to a device, half
// written), sometimes with good rules again, half of them slow to compile.
// Every replacement is reloaded
// off the thread that reads the rings: each hostile one fails in one line
// and leaves the rules in force, each good one is taken, alerts keep coming
// after every round and the probe loses no record.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "kestrel_process.h"
#include "run_triggers.h"

namespace kestrel::e2e {
namespace {

// openat+close of /dev/null as fast as one process goes, until killed.
class OpenFlood {
 public:
  OpenFlood() {
    pid_ = fork();
    if (pid_ == 0) {
      for (;;) close(open("/dev/null", O_RDONLY));
    }
  }
  ~OpenFlood() {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }

 private:
  pid_t pid_ = -1;
};

// A rules file of `n` macros, each naming the next: deeper than the
// loader's limit.
std::string DeepMacroChain(int n) {
  std::string text;
  for (int i = 0; i < n - 1; ++i) {
    absl::StrAppend(&text, "- macro: m_", i, "\n  condition: m_", i + 1, "\n");
  }
  absl::StrAppend(&text, "- macro: m_", n - 1, "\n  condition: evt.type = open\n",
                  "- rule: deep\n  desc: d\n  condition: m_0\n  output: o\n  priority: ERROR\n");
  return text;
}

// `n` rules on execve, which the flood never makes, that take a second or
// so to compile: a reload that slow once stalled the reader long enough
// for the flood to fill the ring.
std::string SlowRules(int n) {
  std::string text;
  for (int i = 0; i < n; ++i) {
    absl::StrAppend(&text, "- rule: slow ", i, "\n  desc: d\n  condition: evt.type = execve and ",
                    "proc.name in (a", i, ", b", i, ") and proc.cmdline startswith \"/none/", i,
                    "\"\n  output: o %proc.cmdline\n  priority: WARNING\n");
  }
  return text;
}

enum class Hostile { kHuge, kDeep, kFifo, kDeviceLink, kHalfWritten };

class RunReloadChaosTest : public ::testing::Test {
 protected:
  // Puts `kind` where the rules file is, as a writer would: all at once
  // by rename, or (half written) truncated in place.
  void Replace(Hostile kind) {
    const std::string tmp = rules_ + ".new";
    switch (kind) {
      case Hostile::kHuge: {
        // 17 MiB, over the 16 MiB default limit: sparse, so cheap to make.
        const int fd = open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        ASSERT_GE(fd, 0);
        ASSERT_EQ(ftruncate(fd, 17 << 20), 0);
        close(fd);
        break;
      }
      case Hostile::kDeep:
        WriteWhole(tmp, deep_);
        break;
      case Hostile::kFifo:
        ASSERT_EQ(mkfifo(tmp.c_str(), 0600), 0);
        break;
      case Hostile::kDeviceLink:
        ASSERT_EQ(symlink("/dev/zero", tmp.c_str()), 0);
        break;
      case Hostile::kHalfWritten: {
        const std::string good = OpenRule(dir_.path());
        const int fd = open(rules_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        ASSERT_GE(fd, 0);
        ASSERT_EQ(write(fd, good.data(), good.size() / 2), static_cast<ssize_t>(good.size() / 2));
        close(fd);
        return;
      }
    }
    ASSERT_EQ(rename(tmp.c_str(), rules_.c_str()), 0);
  }

  RunTempDir dir_;
  const std::string rules_ = dir_.File("rules.yaml");
  const std::string deep_ = DeepMacroChain(15'000);
  const std::string slow_ = SlowRules(20'000);
};

TEST_F(RunReloadChaosTest, HundredHostileReplacementsUnderAFloodLoseNothing) {
  WriteWhole(rules_, OpenRule(dir_.path()));
  KestrelProcess run({"run", "-r", rules_, "--no-pin"});
  ASSERT_TRUE(WaitUntilAlerting(run, dir_));
  // Half written comes after a regular file: it is truncated in place.
  constexpr Hostile kKinds[] = {Hostile::kFifo, Hostile::kDeviceLink, Hostile::kHuge,
                                Hostile::kDeep, Hostile::kHalfWritten};
  constexpr int kRounds = 100;
  size_t failed = 0, reloaded = 0, alerts = 0;
  {
    const OpenFlood flood;
    for (int round = 0; round < kRounds; ++round) {
      // Every tenth round puts good rules back: reloads still work. Half
      // of them are slow to compile.
      if (round % 10 == 9) {
        WriteWhole(rules_, OpenRule(dir_.path()) + (round % 20 == 9 ? slow_ : ""));
        ++reloaded;
      } else {
        Replace(kKinds[round % 5]);
        ++failed;
      }
      ASSERT_TRUE(run.WaitForStderr(
          "kestrel run: reload failed, the current rules keep running: ", failed, kAlertTimeout))
          << "round " << round;
      ASSERT_TRUE(run.WaitForStderr("kestrel run: rules reloaded: ", reloaded, kAlertTimeout))
          << "round " << round;
      // The rules in force still alert.
      const std::string mark = dir_.File(absl::StrCat("mark-round-", round));
      OpenFile(mark);
      if (run.WaitForLine(mark, kAlertTimeout)) ++alerts;
    }
  }
  run.Signal(SIGINT);
  const CliResult r = run.Wait();
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(alerts, static_cast<size_t>(kRounds));
  // One line per failed reload, naming what was wrong.
  EXPECT_EQ(CountLinesWith(Lines(r.err), "reload failed"), failed) << r.err;
  EXPECT_EQ(CountLinesWith(Lines(r.err), "rules reloaded: 1 rules loaded"), reloaded / 2) << r.err;
  EXPECT_EQ(CountLinesWith(Lines(r.err), "rules reloaded: 20001 rules loaded"), reloaded / 2)
      << r.err;
  for (const char* why :
       {"is a FIFO, not a regular file", "is a character device, not a regular file",
        "-byte limit: refused", "nests deeper than 1000 levels"}) {
    EXPECT_TRUE(absl::StrContains(r.err, why)) << why << "\n" << r.err;
  }
  // The whole flood was read: nothing dropped for a full ring.
  EXPECT_TRUE(absl::StrContains(r.err, "dropped 0 (ring full 0,")) << r.err;
  std::fprintf(stderr, "chaos: %zu failed reloads, %zu good ones, %zu alerts; final stats: %s\n",
               failed, reloaded, alerts, r.err.substr(r.err.rfind("kestrel run: events ")).c_str());
}

}  // namespace
}  // namespace kestrel::e2e
