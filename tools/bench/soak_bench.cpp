#include "bench/soak_bench.h"

#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "bench/bench_stats.h"
#include "bench/kestrel_run_child.h"
#include "bench/soak_load.h"

namespace kestrel::cli::bench {
namespace {

using Clock = std::chrono::steady_clock;

constexpr double kPlateauPct = 2.0;   // the bound on the last window's spread
constexpr double kLongWindowS = 300;  // "the last 5 minutes"
constexpr auto kStartTimeout = std::chrono::seconds(60);
constexpr char kStatsPrefix[] = "kestrel run: events ";

std::optional<double> RssMb(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmRSS:", 0) == 0) {
      if (std::optional<uint64_t> kb = NumberAfter(line, "VmRSS:\t")) return *kb / 1024.0;
      uint64_t kb = 0;
      if (std::sscanf(line.c_str(), "VmRSS: %lu", &kb) == 1) return kb / 1024.0;
    }
  }
  return std::nullopt;
}

struct Sample {
  double t_s = 0;
  double rss_mb = 0;
  uint64_t threads = 0;
  double events_per_s = 0;
};

struct FinalCounts {
  uint64_t events = 0, alerts = 0, threads = 0, evicted = 0;
  RunAccounting records;
  std::string drops_line;  // the run's own words, for the note
  bool complete = false;
};

FinalCounts ParseFinal(const std::vector<std::string>& lines) {
  FinalCounts f;
  for (const std::string& line : lines) {
    if (line.rfind(kStatsPrefix, 0) == 0) {
      f.events = NumberAfter(line, "events ").value_or(0);
      f.alerts = NumberAfter(line, "alerts ").value_or(0);
      f.threads = NumberAfter(line, "; threads ").value_or(0);
      f.evicted = NumberAfter(line, "(evicted ").value_or(0);
      const size_t from = line.find("dropped ");
      f.drops_line = line.substr(from, line.find(')', from) + 1 - from);
    }
  }
  if (std::optional<RunAccounting> records = FinalAccounting(lines)) {
    f.records = *records;
    f.complete = true;
  }
  return f;
}

double MedianOf(const std::vector<Sample>& samples, double Sample::*field) {
  std::vector<double> v;
  for (const Sample& s : samples) v.push_back(s.*field);
  return Median(v);
}

}  // namespace

absl::StatusOr<BenchReport> RunSoakBench(const SoakBenchOptions& options) {
  char scratch_template[] = "/tmp/kestrel-soak-XXXXXX";
  if (mkdtemp(scratch_template) == nullptr) return absl::InternalError("mkdtemp failed");
  const std::string scratch = scratch_template;
  struct RemoveScratch {
    std::string dir;
    ~RemoveScratch() {
      std::error_code ignored;
      std::filesystem::remove_all(dir, ignored);
    }
  } remove_scratch{scratch};

  absl::StatusOr<KestrelRunChild> run =
      KestrelRunChild::Start({"--no-pin", "--stats-interval", "1"});
  if (!run.ok()) return run.status();
  // Attached once it says what it captures (its first line, after the seed).
  const auto start_deadline = Clock::now() + kStartTimeout;
  bool attached = false;
  while (!attached && Clock::now() < start_deadline) {
    for (const std::string& line : run->Read(200)) {
      if (line.find(" syscalls; ") != std::string::npos) attached = true;
    }
    if (waitpid(run->pid(), nullptr, WNOHANG) != 0) break;
  }
  if (!attached) {
    return absl::InternalError(
        absl::StrCat("kestrel run did not start: ", absl::StrJoin(run->lines(), " | ")));
  }

  std::vector<Sample> samples;
  {
    SoakLoad load({.rounds_per_second = options.rounds_per_second, .scratch_dir = scratch});
    if (load.failed() != 0) return absl::InternalError("could not start the load");
    const auto begin = Clock::now();
    const auto end = begin + std::chrono::duration<double>(options.duration_s);
    Sample last;
    while (Clock::now() < end) {
      for (const std::string& line : run->Read(1000)) {
        if (line.rfind(kStatsPrefix, 0) != 0) continue;
        Sample s;
        s.t_s = std::chrono::duration<double>(Clock::now() - begin).count();
        s.rss_mb = RssMb(run->pid()).value_or(0);
        s.threads = NumberAfter(line, "; threads ").value_or(0);
        if (const size_t paren = line.find(" ("); paren != std::string::npos) {
          double rate = 0;
          std::sscanf(line.c_str() + paren, " (%lf/s)", &rate);
          s.events_per_s = rate;
        }
        samples.push_back(s);
      }
    }
  }
  const int exit_code = run->Stop();
  const FinalCounts final = ParseFinal(run->lines());
  if (samples.size() < 4 || !final.complete) {
    return absl::InternalError(absl::StrFormat(
        "kestrel run gave %d stats lines and %s final accounting (exit %d): %s", samples.size(),
        final.complete ? "a" : "no", exit_code, absl::StrJoin(run->lines(), " | ")));
  }

  // The plateau window: the last 5 minutes of a long soak, the second half
  // of a short one (the first seconds are the seed and warm-up).
  const double total_s = samples.back().t_s;
  const double window_from = total_s >= 2 * kLongWindowS ? total_s - kLongWindowS : total_s / 2;
  std::vector<Sample> head, window;
  for (const Sample& s : samples) {
    if (s.t_s <= std::min(60.0, total_s / 4)) head.push_back(s);
    if (s.t_s >= window_from) window.push_back(s);
  }
  if (head.empty()) head.push_back(samples.front());
  double lo = window.front().rss_mb, hi = lo;
  uint64_t max_threads = 0;
  for (const Sample& s : window) lo = std::min(lo, s.rss_mb), hi = std::max(hi, s.rss_mb);
  for (const Sample& s : samples) max_threads = std::max(max_threads, s.threads);
  const double window_median = MedianOf(window, &Sample::rss_mb);
  const double spread_pct = window_median > 0 ? 100.0 * (hi - lo) / window_median : 0;

  BenchReport report;
  report.mode = "soak";
  report.rows.push_back(Row("kestrel run RSS, start (median of the first samples)",
                            MedianOf(head, &Sample::rss_mb), "MB"));
  report.rows.push_back(Row("kestrel run RSS, plateau window (median)", window_median, "MB"));
  BenchRow spread = Row("RSS spread in the plateau window ((max - min) / median)", spread_pct, "%");
  spread.note = Judge(spread, spread_pct, kPlateauPct);
  report.rows.push_back(spread);
  BenchRow threads =
      Row("thread table, largest size seen", static_cast<double>(max_threads), "threads");
  threads.note = absl::StrCat("at the end ", final.threads, ", evicted ", final.evicted);
  report.rows.push_back(threads);
  report.rows.push_back(Row("events evaluated per second (median)",
                            MedianOf(samples, &Sample::events_per_s), "events/s"));
  report.rows.push_back(Row("events evaluated", static_cast<double>(final.events), "events"));
  BenchRow dropped = Row("records dropped", static_cast<double>(final.records.dropped), "records");
  dropped.note = final.drops_line;
  report.rows.push_back(dropped);
  report.rows.push_back(Row("alerts", static_cast<double>(final.alerts), "alerts"));
  const double unaccounted = static_cast<double>(final.records.attempted) -
                             static_cast<double>(final.records.consumed +
                                                 final.records.left_unread + final.records.dropped);
  BenchRow accounting =
      Row("records attempted - (consumed + left unread + dropped)", unaccounted, "records");
  // Judge() measures misses relative to the target, which 0 has no room for.
  accounting.target = 0;
  accounting.met = unaccounted == 0;
  accounting.note =
      absl::StrCat(unaccounted == 0 ? "target met" : "accounting does not add up", "; attempted ",
                   final.records.attempted, ", written ", final.records.written);
  report.rows.push_back(accounting);

  report.notes.push_back(absl::StrFormat(
      "%.0f s of `kestrel run` (default rules, alerts to /dev/null) under %d rounds/s per CPU "
      "(a spawn of /bin/true, 20 open+fcntl+close, a refused connect, 50 getppid); plateau "
      "window from %.0f s; kestrel run exited %d",
      total_s, options.rounds_per_second, window_from, exit_code));
  std::vector<std::string> trace;
  const size_t step = std::max<size_t>(1, samples.size() / 10);
  for (size_t i = 0; i < samples.size(); i += step) {
    trace.push_back(absl::StrFormat("%.0fs %.1f MB %u thr", samples[i].t_s, samples[i].rss_mb,
                                    samples[i].threads));
  }
  report.notes.push_back(absl::StrCat("RSS over time: ", absl::StrJoin(trace, ", ")));
  return report;
}

}  // namespace kestrel::cli::bench
