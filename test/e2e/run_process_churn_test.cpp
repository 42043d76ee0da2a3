// `kestrel run` under 10,000 short-lived processes a second for 10 s, with
// a thread table bounded at 1024 entries (issue 21). It starts while the
// processes churn, so its /proc seed reads processes that exit under it.
// No crash, memory that stops growing, evictions counted, every record
// accounted for, and the state still right afterwards.
#include <gtest/gtest.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <fstream>
#include <iostream>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "kestrel_process.h"
#include "run_stats_figures.h"
#include "run_triggers.h"

namespace kestrel::e2e {
namespace {

constexpr int kPerSecond = 10000;
constexpr int kSeconds = 10;
constexpr int kTableSize = 1024;

// Resident kB of `pid` (VmRSS), 0 if gone.
uint64_t RssKb(pid_t pid) {
  std::ifstream in(absl::StrCat("/proc/", pid, "/status"));
  for (std::string line; std::getline(in, line);) {
    uint64_t kb = 0;
    if (line.starts_with("VmRSS:") &&
        absl::SimpleAtoi(absl::StripAsciiWhitespace(line.substr(6, line.size() - 6 - 3)), &kb)) {
      return kb;
    }
  }
  return 0;
}

// One child that exits at once, waited for. vfork: no copy of the
// address space, so the machine keeps the pace. Out of line, so the
// caller's variables are not the child's to clobber.
[[gnu::noinline]] bool SpawnOne() {
  const pid_t c = vfork();
  if (c == 0) _exit(0);
  return c > 0 && waitpid(c, nullptr, 0) == c;
}

// Workers, one per CPU, each starting children that exit at once, paced to
// `per_second` in all, until stopped; spawned() (shared memory) counts them.
class Churn {
 public:
  explicit Churn(int per_second) {
    spawned_ = static_cast<std::atomic<long>*>(mmap(nullptr, sizeof(std::atomic<long>),
                                                    PROT_READ | PROT_WRITE,
                                                    MAP_SHARED | MAP_ANONYMOUS, -1, 0));
    new (spawned_) std::atomic<long>(0);
    const int n_cpus = static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN));
    for (int cpu = 0; cpu < n_cpus; ++cpu) {
      const pid_t w = fork();
      if (w == 0) Work(cpu, static_cast<double>(n_cpus) / per_second);
      workers_.push_back(w);
    }
  }
  ~Churn() {
    Stop();
    munmap(spawned_, sizeof(std::atomic<long>));
  }
  long spawned() const { return spawned_->load(); }
  void Stop() {
    for (pid_t w : workers_) {
      kill(w, SIGKILL);
      waitpid(w, nullptr, 0);
    }
    workers_.clear();
  }

 private:
  [[noreturn]] void Work(int cpu, double interval_s) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    sched_setaffinity(0, sizeof set, &set);
    const auto start = std::chrono::steady_clock::now();
    for (long n = 0;; ++n) {
      const auto due = start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                   std::chrono::duration<double>(n * interval_s));
      if (std::chrono::steady_clock::now() < due) std::this_thread::sleep_until(due);
      if (SpawnOne()) spawned_->fetch_add(1);
    }
  }

  std::atomic<long>* spawned_;
  std::vector<pid_t> workers_;
};

std::string ChurnRules(const std::string& mark) {
  return absl::StrCat(
      "- rule: Churn marker\n"
      "  desc: the test ran /bin/true with its mark\n"
      "  condition: evt.type = execve and proc.cmdline startswith \"true ",
      mark,
      "\"\n"
      "  output: ran %proc.cmdline ppid=%proc.ppid pname=%proc.pname\n"
      "  priority: CRITICAL\n");
}

TEST(RunProcessChurnTest, TenThousandProcessesASecondKeepTheTableBoundedAndCounted) {
  ASSERT_EQ(geteuid(), 0u) << "kestrel tests never skip: run as root";
  RunTempDir dir;
  const std::string mark = absl::StrCat("churn-", getpid());
  const std::string rules = dir.File("rules.yaml");
  WriteWhole(rules, ChurnRules(mark));

  Churn churn(kPerSecond);
  KestrelProcess run({"run", "-r", rules, "--no-pin", "-o",
                      absl::StrCat("falco_libs.thread_table_size=", kTableSize)});
  ASSERT_TRUE(WaitUntilExecAlerts(run, mark)) << run.Wait().err;

  // kSeconds of churn from here, RSS once a second.
  const long spawned_before = churn.spawned();
  const auto measured_start = std::chrono::steady_clock::now();
  std::vector<uint64_t> rss_kb;
  while (std::chrono::steady_clock::now() < measured_start + std::chrono::seconds(kSeconds)) {
    rss_kb.push_back(RssKb(run.pid()));
    run.ReadLine(std::chrono::milliseconds(1000));
  }
  const long spawned = churn.spawned() - spawned_before;
  churn.Stop();

  // The state is right after the churn: this process and its child.
  ExecTrue(absl::StrCat(mark, "-after"));
  const std::optional<std::string> after =
      run.WaitForLine(absl::StrCat(mark, "-after "), std::chrono::seconds(30));
  run.Signal(SIGINT);
  const CliResult r = run.Wait(std::chrono::seconds(60));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_TRUE(after) << r.err;
  EXPECT_TRUE(absl::StrContains(*after, absl::StrCat("ppid=", getpid(), " pname=kestrel_e2e_tes")))
      << *after;

  // The load was near what the test asks for; a machine busy with other
  // tests (ctest -j) may fall a little short of the pace.
  EXPECT_GE(spawned, kPerSecond * kSeconds * 7 / 10) << "the machine spawned too few";
  // Bounded: the table at most its size, and it evicted to stay there.
  const uint64_t threads = StatsFigure(r.err, R"(; threads (\d+) \(evicted)");
  const uint64_t evicted = StatsFigure(r.err, R"(; threads \d+ \(evicted (\d+)\))");
  EXPECT_LE(threads, static_cast<uint64_t>(kTableSize)) << r.err;
  EXPECT_GT(evicted, 0u) << r.err;
  // Memory stopped growing: the second half of the churn within 4 MiB of
  // the first half's largest.
  ASSERT_GE(rss_kb.size(), 4u);
  const size_t half = rss_kb.size() / 2;
  const uint64_t first_max = *std::max_element(rss_kb.begin(), rss_kb.begin() + half);
  const uint64_t second_max = *std::max_element(rss_kb.begin() + half, rss_kb.end());
  EXPECT_LE(second_max, first_max + 4096)
      << "RSS kept growing (kB): first half " << first_max << ", second half " << second_max;
  // Every record accounted for.
  ExpectEveryRecordAccountedFor(r.err);
  std::cout << "spawned " << spawned << " processes in " << kSeconds
            << " s; RSS (kB) first half max " << first_max << ", second half max " << second_max
            << "\n"
            << r.err;
}

}  // namespace
}  // namespace kestrel::e2e
