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
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "agent/config/default_rules.h"
#include "bench/bench_stats.h"
#include "bench/kestrel_run_child.h"
#include "bench/soak_load.h"
#include "bench/soak_reloads.h"

namespace kestrel::bench {
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

// One output channel's figures in a stats line: "NAME sent S failed F
// (CAUSE N, ...) dropped D (CAUSE N, ...)", the causes only when nonzero.
struct ChannelFigures {
  uint64_t sent = 0, failed = 0, dropped = 0;
  std::string failed_causes;  // "write error: No space left on device 12", or empty
  bool found = false;
};

ChannelFigures FiguresOf(const std::string& line, const std::string& name) {
  ChannelFigures f;
  const std::string key = " " + name + " sent ";
  const size_t at = line.find(key);
  if (at == std::string::npos) return f;
  const std::string_view rest = std::string_view(line).substr(at);
  std::optional<uint64_t> sent = NumberAfter(rest, key);
  std::optional<uint64_t> failed = NumberAfter(rest, " failed ");
  std::optional<uint64_t> dropped = NumberAfter(rest, " dropped ");
  if (!sent || !failed || !dropped) return f;
  f.sent = *sent, f.failed = *failed, f.dropped = *dropped, f.found = true;
  size_t after = rest.find(" failed ") + 8;
  while (after < rest.size() && rest[after] >= '0' && rest[after] <= '9') ++after;
  if (rest.substr(after).starts_with(" (")) {
    const size_t close = rest.find(')', after);
    if (close != std::string_view::npos)
      f.failed_causes = rest.substr(after + 2, close - after - 2);
  }
  return f;
}

struct FinalCounts {
  uint64_t events = 0, alerts = 0, threads = 0, evicted = 0;
  RunAccounting records;
  std::string drops_line;  // the run's own words, for the note
  ChannelFigures failing_file;
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
      f.failing_file = FiguresOf(line, "file");
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

// Copies the default rules files into `dir`: the run loads the copies,
// which the reloads may break. Their paths, sorted.
absl::StatusOr<std::vector<std::string>> CopyDefaultRules(const std::string& dir) {
  std::error_code error;
  std::filesystem::create_directory(dir, error);
  if (error) return absl::InternalError(absl::StrCat("cannot create ", dir));
  std::vector<std::string> copies;
  for (const auto& entry : std::filesystem::directory_iterator(agent::DefaultRulesDir(), error)) {
    const std::string ext = entry.path().extension().string();
    if (!entry.is_regular_file() || (ext != ".yaml" && ext != ".yml")) continue;
    const std::string to = dir + "/" + entry.path().filename().string();
    if (!std::filesystem::copy_file(entry.path(), to, error)) {
      return absl::InternalError(absl::StrCat("cannot copy ", entry.path().string(), " to ", to));
    }
    copies.push_back(to);
  }
  if (copies.empty()) {
    return absl::InternalError(absl::StrCat("no rules files in ", agent::DefaultRulesDir()));
  }
  std::sort(copies.begin(), copies.end());
  return copies;
}

std::string ReadWhole(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Opens /etc/shadow for reading: the default rules' "Secret file read by
// an unexpected program", so the run raises an alert for its outputs to
// deliver (or fail to) whatever the load does.
void RaiseAnAlert() {
  const int fd = open("/etc/shadow", O_RDONLY | O_CLOEXEC);
  if (fd >= 0) close(fd);
}

// The reloads: how many were done, refused while the file was broken (the
// rules already loaded raising alerts meanwhile), and went otherwise than
// they must.
void AddReloadRows(const SoakReloads& reloads, BenchReport& report) {
  const SoakReloads::Tally& t = reloads.tally();
  BenchRow done = Row(absl::StrFormat("rules reloads done (SIGHUP every %.0f s, and the watcher's)",
                                      reloads.period_s()),
                      t.reloaded, "reloads");
  done.note = absl::StrCat(t.sighups, " SIGHUPs sent");
  report.rows.push_back(done);
  BenchRow refused =
      Row("rules reloads refused while the rules file was broken", t.refused, "reloads");
  refused.target = 1;
  refused.met = t.refused >= 1 && t.alerts_while_broken > 0;
  refused.note = absl::StrFormat(
      "%s; broken from %.1f s to %.1f s, the rules loaded before kept running: %u alerts meanwhile",
      *refused.met ? "target met" : "target missed: none refused, or no alert meanwhile",
      t.broken_from_s, t.broken_to_s, t.alerts_while_broken);
  report.rows.push_back(refused);
  BenchRow unexpected = Row("rules reloads with an unexpected outcome", t.unexpected, "reloads");
  // Judge() measures misses relative to the target, which 0 has no room for.
  unexpected.target = 0;
  unexpected.met = t.unexpected == 0;
  unexpected.note = t.unexpected == 0
                        ? "target met"
                        : "a reload failed with the good file, or was done with the broken one";
  report.rows.push_back(unexpected);
}

// The file output on /dev/full: every alert failed (or dropped), none
// counted as sent, the cause named.
void AddFailingOutputRow(const FinalCounts& final, BenchReport& report) {
  const ChannelFigures& f = final.failing_file;
  BenchRow row = Row("alert deliveries failed on the file output (/dev/full)",
                     static_cast<double>(f.failed), "alerts");
  row.target = static_cast<double>(final.alerts);
  row.met = f.found && f.failed > 0 && f.sent == 0 && f.failed + f.dropped == final.alerts;
  row.note = absl::StrFormat(
      "%s; of %u alerts: sent %u, failed %u (%s), dropped %u",
      *row.met ? "target met" : "target missed: an alert counted as sent, or not at all",
      final.alerts, f.sent, f.failed, f.failed_causes.empty() ? "no cause" : f.failed_causes,
      f.dropped);
  report.rows.push_back(row);
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

  absl::StatusOr<std::vector<std::string>> rules = CopyDefaultRules(scratch + "/rules");
  if (!rules.ok()) return rules.status();
  // Every alert fails on the file output: a full disk for the soak's length.
  std::vector<std::string> args = {"--no-pin",
                                   "--stats-interval",
                                   "1",
                                   "-o",
                                   "file_output.enabled=true",
                                   "-o",
                                   "file_output.filename=/dev/full"};
  for (const std::string& file : *rules) {
    args.push_back("-r");
    args.push_back(file);
  }
  absl::StatusOr<KestrelRunChild> run = KestrelRunChild::Start(args);
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
  // The first rules file is the one broken for a while.
  SoakReloads reloads(run->pid(), rules->front(), ReadWhole(rules->front()), options.duration_s);
  {
    SoakLoad load({.rounds_per_second = options.rounds_per_second, .scratch_dir = scratch});
    if (load.failed() != 0) return absl::InternalError("could not start the load");
    const auto begin = Clock::now();
    const auto end = begin + std::chrono::duration<double>(options.duration_s);
    double next_alert_s = 0;
    while (Clock::now() < end) {
      const double now_s = std::chrono::duration<double>(Clock::now() - begin).count();
      if (absl::Status s = reloads.Tick(now_s); !s.ok()) return s;
      if (now_s >= next_alert_s) {
        RaiseAnAlert();
        next_alert_s = now_s + 1;
      }
      // Short waits, so the SIGHUPs and the file's changes keep their times.
      for (const std::string& line : run->Read(200)) {
        reloads.See(line);
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
  AddReloadRows(reloads, report);
  AddFailingOutputRow(final, report);

  report.notes.push_back(absl::StrFormat(
      "%.0f s of `kestrel run` (a copy of the default rules, reloaded by SIGHUP every %.0f s and "
      "broken once; alerts to /dev/null and to a file output on /dev/full) under %d rounds/s per "
      "CPU (a spawn of /bin/true, 20 open+fcntl+close, a refused connect, 50 getppid) and an "
      "open of /etc/shadow every second; plateau window from %.0f s; kestrel run exited %d",
      total_s, reloads.period_s(), options.rounds_per_second, window_from, exit_code));
  std::vector<std::string> trace;
  const size_t step = std::max<size_t>(1, samples.size() / 10);
  for (size_t i = 0; i < samples.size(); i += step) {
    trace.push_back(absl::StrFormat("%.0fs %.1f MB %u thr", samples[i].t_s, samples[i].rss_mb,
                                    samples[i].threads));
  }
  report.notes.push_back(absl::StrCat("RSS over time: ", absl::StrJoin(trace, ", ")));
  return report;
}

}  // namespace kestrel::bench
