// Issue 20's overload test: `kestrel run` whose reader is starved (stopped
// most of the time, as a CPU-limited agent is) while a process floods the
// probe with getppid. Load shedding must switch on before a ring fills,
// thin only the syscall no rule at or above keep_priority needs, switch
// off once the backlog clears, and say so each time; every call a kept
// rule needs still alerts, and no record is lost to a full ring.
#include <gtest/gtest.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <optional>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "kestrel_process.h"
#include "run_stats_figures.h"
#include "run_triggers.h"

namespace kestrel::e2e {
namespace {

constexpr int kNeeded = 200;

std::string ShedRules(const std::string& dir) {
  return absl::StrCat(
      "- rule: Needed marker\n"
      "  desc: the test made one of its marker folders\n"
      "  condition: evt.type in (mkdir, mkdirat) and fs.path.name startswith \"",
      dir,
      "/need-\"\n"
      "  output: made %fs.path.name\n"
      "  priority: CRITICAL\n"
      "- rule: Chatty getppid\n"
      "  desc: below keep_priority, so its syscall may be thinned; never matches\n"
      "  condition: evt.type = getppid and proc.name = no-such-process\n"
      "  output: getppid by %proc.name\n"
      "  priority: DEBUG\n");
}

// A child calling getppid as fast as it can on `cpu` until killed.
class GetppidFlood {
 public:
  explicit GetppidFlood(int cpu) {
    pid_ = fork();
    if (pid_ == 0) {
      PinTo(0, cpu);
      prctl(PR_SET_NAME, "e2e-shed-load");
      for (;;) syscall(SYS_getppid);
    }
  }
  ~GetppidFlood() { Stop(); }
  void Stop() {
    if (pid_ <= 0) return;
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
    pid_ = -1;
  }

 private:
  pid_t pid_ = -1;
};

// Stops `pid` for 50 ms out of every 55 until destroyed: a reader that
// gets a tenth of a CPU.
class Starver {
 public:
  explicit Starver(pid_t pid)
      : thread_([this, pid] {
          while (!done_) {
            kill(pid, SIGSTOP);
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
            kill(pid, SIGCONT);
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
          }
        }) {}
  ~Starver() {
    done_ = true;
    thread_.join();
  }

 private:
  std::atomic<bool> done_{false};
  std::thread thread_;
};

TEST(RunLoadSheddingTest, DryRunSaysWhatWouldBeThinnedAndBadFillsAreUsageErrors) {
  RunTempDir dir;
  const std::string rules = dir.File("rules.yaml");
  WriteWhole(rules, ShedRules(dir.path()));
  CliResult r =
      RunKestrel({"run", "-r", rules, "--dry-run", "-o", "load_shedding.keep_priority=warning"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(absl::StrContains(
      r.err, "kestrel run: load shedding keeps 1 in 16 calls of getppid when a ring is 50% full\n"))
      << r.err;
  r = RunKestrel({"run", "-r", rules, "--dry-run"});
  EXPECT_TRUE(absl::StrContains(r.err,
                                "kestrel run: load shedding has nothing to thin: rules at or above "
                                "Debug and the state need every syscall captured\n"))
      << r.err;
  r = RunKestrel({"run", "-r", rules, "--dry-run", "-o", "load_shedding.stop_fill=0.6"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "kestrel run: load_shedding.stop_fill (0.6) must be below load_shedding.start_fill "
            "(0.5)\n");
}

// A live start says what shedding will do, also when it will do nothing.
TEST(RunLoadSheddingTest, ALiveStartWithSheddingDisabledSaysSo) {
  ASSERT_EQ(geteuid(), 0u) << "kestrel tests never skip: run as root";
  RunTempDir dir;
  const std::string rules = dir.File("rules.yaml");
  WriteWhole(rules, ShedRules(dir.path()));
  KestrelProcess run({"run", "-r", rules, "--no-pin", "-o", "load_shedding.enabled=false"});
  bool ready = false;
  for (int i = 0; i < 100 && !ready; ++i) {
    const std::string path = dir.File(absl::StrCat("need-ready-", i));
    ASSERT_EQ(mkdir(path.c_str(), 0700), 0);
    ready = run.WaitForLine(path, std::chrono::milliseconds(300)).has_value();
  }
  run.Signal(SIGINT);
  const CliResult r = run.Wait();
  EXPECT_TRUE(ready) << r.err;
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(absl::StrContains(r.err, "kestrel run: load shedding off\n")) << r.err;
}

TEST(RunLoadSheddingTest, AStarvedReaderShedsWhatNoKeptRuleNeedsAndLosesNothingElse) {
  ASSERT_EQ(geteuid(), 0u) << "kestrel tests never skip: run as root";
  const int n_cpus = static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN));
  RunTempDir dir;
  const std::string rules = dir.File("rules.yaml");
  WriteWhole(rules, ShedRules(dir.path()));

  // kestrel on the first CPU, the flood on the last: inherited through fork.
  cpu_set_t all;
  sched_getaffinity(0, sizeof all, &all);
  PinTo(0, 0);
  KestrelProcess run({"run", "-r", rules, "--no-pin", "--buffer-bytes", "64M", "-o",
                      "load_shedding.keep_priority=warning", "-o", "load_shedding.start_fill=0.05",
                      "-o", "load_shedding.stop_fill=0.01", "-o", "load_shedding.min_seconds=0.2",
                      "-o", "load_shedding.sampling_ratio=64"});
  sched_setaffinity(0, sizeof all, &all);

  // Ready once a marker folder alerts.
  bool ready = false;
  for (int i = 0; i < 100 && !ready; ++i) {
    const std::string path = dir.File(absl::StrCat("need-ready-", i));
    ASSERT_EQ(mkdir(path.c_str(), 0700), 0);
    ready = run.WaitForLine(path, std::chrono::milliseconds(300)).has_value();
  }
  ASSERT_TRUE(ready) << run.Wait().err;

  {
    GetppidFlood flood(n_cpus - 1);
    Starver starver(run.pid());
    for (int i = 0; i < kNeeded; ++i) {
      const std::string path = dir.File(absl::StrCat("need-", i));
      ASSERT_EQ(mkdir(path.c_str(), 0700), 0);
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
  kill(run.pid(), SIGCONT);
  // Once the backlog is read, shedding stops: as many stops as starts. The
  // last folder's alert comes first, or a stop read mid-backlog (shedding
  // may flap while the reader catches up) would end the wait early.
  const std::string last_needed = absl::StrCat(dir.path(), "/need-", kNeeded - 1);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  bool last_seen = false;
  while (std::chrono::steady_clock::now() < deadline) {
    const size_t started = CountLinesWith(run.lines(), "Load shedding started");
    if (last_seen && started > 0 &&
        CountLinesWith(run.lines(), "Load shedding stopped") == started) {
      break;
    }
    const std::optional<std::string> line = run.ReadLine(std::chrono::milliseconds(200));
    if (line && absl::EndsWith(*line, last_needed)) last_seen = true;
  }
  run.Signal(SIGINT);
  const CliResult r = run.Wait();
  ASSERT_EQ(r.exit_code, 0) << r.err;

  // Every stdout line, also those still unread when the wait ended.
  const std::vector<std::string> lines = Lines(r.out);
  const size_t started = CountLinesWith(lines, "Load shedding started");
  EXPECT_GE(started, 1u) << r.err;
  EXPECT_EQ(CountLinesWith(lines, "Load shedding stopped"), started) << r.err;
  EXPECT_TRUE(absl::StrContains(
      r.err, absl::StrCat("load shedding started ", started, " stopped ", started)))
      << r.err;
  // The start names what is thinned, and only getppid is.
  for (const std::string& l : lines) {
    if (!absl::StrContains(l, "Load shedding started")) continue;
    EXPECT_TRUE(absl::StrContains(l, "Warning Load shedding started: a ring is ")) << l;
    EXPECT_TRUE(absl::StrContains(l,
                                  "keeping 1 in 64 calls of the syscalls no rule at or above "
                                  "Warning needs (getppid)"))
        << l;
  }
  // Every folder the Critical rule needs alerted, once.
  for (int i = 0; i < kNeeded; ++i) {
    const std::string made = absl::StrCat(": Critical made ", dir.path(), "/need-", i);
    size_t alerts = 0;
    for (const std::string& l : lines) alerts += absl::EndsWith(l, made) ? 1 : 0;
    EXPECT_EQ(alerts, 1u) << made;
  }
  // Nothing lost to a full ring; getppid calls were sampled out.
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.err, m,
                                std::regex(R"(dropped (\d+) \(ring full (\d+), too large 0, no )"
                                           R"(ring 0, settings busy 0, sampling (\d+)\))")))
      << r.err;
  EXPECT_EQ(m[2], "0") << r.err;
  EXPECT_GT(std::stoull(m[3]), 0u) << r.err;
  EXPECT_EQ(m[1], m[3]) << r.err;
}

}  // namespace
}  // namespace kestrel::e2e
