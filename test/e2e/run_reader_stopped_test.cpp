// `kestrel run` stopped (SIGSTOP) for 5 s under load, then resumed (issue
// 21). The ring overflows while it sleeps; afterwards every record is
// accounted for by cause, every loss is marked in the stream, and a
// process spawned during the gap, whose clone and exec were lost, is
// described right once it acts: its own pid, its parent, its parent's name.
#include <gtest/gtest.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <regex>
#include <string>
#include <thread>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "kestrel_process.h"
#include "run_stats_figures.h"
#include "run_triggers.h"

namespace kestrel::e2e {
namespace {

std::string GapRules(const std::string& mark) {
  return absl::StrCat(
      "- rule: Gap marker\n"
      "  desc: a process of the test ran /bin/true with its mark\n"
      "  condition: evt.type = execve and proc.cmdline startswith \"true ",
      mark,
      "\"\n"
      "  output: ran %proc.cmdline pid=%proc.pid ppid=%proc.ppid pname=%proc.pname\n"
      "  priority: CRITICAL\n"
      "- rule: Captured getppid\n"
      "  desc: makes getppid, the load, a captured syscall; never matches\n"
      "  condition: evt.type = getppid and proc.name = no-such-process\n"
      "  output: getppid by %proc.name\n"
      "  priority: DEBUG\n");
}

// A child calling getppid as fast as it can until killed.
pid_t StartFlood() {
  const pid_t pid = fork();
  if (pid == 0) {
    prctl(PR_SET_NAME, "e2e-gap-load");
    for (;;) syscall(SYS_getppid);
  }
  return pid;
}

// One getppid from each CPU: a CPU's last loss is marked in the stream
// just before the next record it writes.
void OneCallOnEachCpu() {
  const int n_cpus = static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN));
  for (int cpu = 0; cpu < n_cpus; ++cpu) {
    const pid_t pid = fork();
    if (pid == 0) {
      PinTo(0, cpu);
      syscall(SYS_getppid);
      _exit(0);
    }
    waitpid(pid, nullptr, 0);
  }
}

TEST(RunReaderStoppedTest, FiveSecondsStoppedUnderLoadLosesNothingUncountedAndStateStaysRight) {
  ASSERT_EQ(geteuid(), 0u) << "kestrel tests never skip: run as root";
  RunTempDir dir;
  const std::string mark = absl::StrCat("gap-", getpid());
  const std::string rules = dir.File("rules.yaml");
  WriteWhole(rules, GapRules(mark));
  // A small ring that the load fills within the gap; no load shedding, so
  // the ring overflows and the losses are the probe's to count.
  KestrelProcess run({"run", "-r", rules, "--no-pin", "--buffer-bytes", "1M", "-o",
                      "load_shedding.enabled=false"});
  ASSERT_TRUE(WaitUntilExecAlerts(run, mark)) << run.Wait().err;

  const pid_t flood = StartFlood();
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  ASSERT_EQ(kill(run.pid(), SIGSTOP), 0);
  std::this_thread::sleep_for(std::chrono::seconds(1));
  // Spawned while the reader sleeps and the ring is full: its clone and
  // its exec of sh are lost. It waits for a line, then runs /bin/true as a
  // child; at the next line it execs /bin/true itself. Waiting keeps it
  // alive until its child's alert is out.
  int go[2];
  ASSERT_EQ(pipe(go), 0);
  const pid_t gap_child = fork();
  if (gap_child == 0) {
    dup2(go[0], 0);
    close(go[0]);
    close(go[1]);
    const std::string script =
        absl::StrCat("read x; /bin/true ", mark, "-child; read x; exec /bin/true ", mark, "-self");
    execl("/bin/sh", "sh", "-c", script.c_str(), nullptr);
    _exit(127);
  }
  close(go[0]);
  std::this_thread::sleep_for(std::chrono::seconds(4));
  ASSERT_EQ(kill(run.pid(), SIGCONT), 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  kill(flood, SIGKILL);
  waitpid(flood, nullptr, 0);
  OneCallOnEachCpu();
  // The reader has caught up once an exec after the gap alerts.
  ExecTrue(absl::StrCat(mark, "-caught-up"));
  ASSERT_TRUE(run.WaitForLine(absl::StrCat(mark, "-caught-up "), std::chrono::seconds(30)));

  ASSERT_EQ(write(go[1], "\n", 1), 1);
  const std::optional<std::string> child_alert =
      run.WaitForLine(absl::StrCat(mark, "-child "), std::chrono::seconds(30));
  ASSERT_EQ(write(go[1], "\n", 1), 1);
  close(go[1]);
  int status = 0;
  ASSERT_EQ(waitpid(gap_child, &status, 0), gap_child);
  const std::optional<std::string> self_alert =
      run.WaitForLine(absl::StrCat(mark, "-self "), std::chrono::seconds(30));
  OneCallOnEachCpu();
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  run.Signal(SIGINT);
  const CliResult r = run.Wait(std::chrono::seconds(60));
  ASSERT_EQ(r.exit_code, 0) << r.err;

  // The process spawned in the gap, and its child, as they are.
  ASSERT_TRUE(child_alert) << r.err;
  EXPECT_TRUE(absl::StrContains(*child_alert, absl::StrCat("ppid=", gap_child, " pname=sh")))
      << "the child of " << gap_child << ": " << *child_alert << "\n"
      << r.out;
  ASSERT_TRUE(self_alert) << r.err;
  EXPECT_TRUE(absl::StrContains(
      *self_alert, absl::StrCat("pid=", gap_child, " ppid=", getpid(), " pname=kestrel_e2e_tes")))
      << *self_alert;

  // Every record accounted for: read, left unread or dropped by cause.
  const RecordAccounting a = ExpectEveryRecordAccountedFor(r.err);
  const uint64_t ring_full =
      StatsFigure(r.err, R"(, left unread \d+, dropped \d+ \(ring full (\d+),)");
  EXPECT_EQ(a.unread, 0u) << r.err;
  EXPECT_GT(ring_full, 0u) << "the gap overflowed nothing: " << r.err;
  EXPECT_EQ(a.dropped, ring_full) << r.err;  // no other cause
  // The engine's own line: the same drops, every one named by a marker in
  // the stream.
  EXPECT_EQ(StatsFigure(r.err, R"(events \d+, dropped (\d+) \(ring full)"), a.dropped) << r.err;
  EXPECT_EQ(StatsFigure(r.err, R"(drop markers \d+ for (\d+) records)"), ring_full) << r.err;
  EXPECT_EQ(StatsFigure(r.err, R"(kestrel run: .*drop markers (\d+) for)"),
            StatsFigure(r.err, R"(written \d+, drop markers (\d+))"))
      << r.err;
}

}  // namespace
}  // namespace kestrel::e2e
