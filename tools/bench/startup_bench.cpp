#include "bench/startup_bench.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <fstream>
#include <map>
#include <optional>
#include <thread>
#include <vector>

#include "absl/strings/str_format.h"
#include "agent/probe/probe_loader.h"
#include "bench/bench_stats.h"
#include "bench/kestrel_run_child.h"
#include "libpman.h"
#include "libpman_control.h"
#include "shared/event_types.h"

namespace kestrel::bench {
namespace {

// Issue 34's targets.
constexpr double kCaptureCpuTargetS = 0.3;
constexpr double kRunCpuTargetS = 1.5;
constexpr double kRunLazyOverEagerTarget = 0.25;
constexpr double kLiveEnableTargetMs = 200;

// A loaded probe on a busy 2-core machine took up to 24 s before fillers
// were loaded lazily; a child not attached in a minute is broken.
constexpr int kAttachTimeoutMs = 60'000;
constexpr char kPinDir[] = "/sys/fs/bpf/kestrel-bench-startup";

using Clock = std::chrono::steady_clock;

// CPU time, user and system, of every thread of `pid` so far: the
// scheduler's own nanoseconds (schedstat), where /proc/PID/stat counts
// 10 ms ticks.
double ProcessCpuSeconds(pid_t pid) {
  const std::string tasks = absl::StrFormat("/proc/%d/task", pid);
  DIR* dir = opendir(tasks.c_str());
  if (dir == nullptr) return 0;
  uint64_t ns = 0;
  while (const dirent* e = readdir(dir)) {
    if (e->d_name[0] == '.') continue;
    std::ifstream in(tasks + "/" + e->d_name + "/schedstat");
    uint64_t on_cpu = 0;
    if (in >> on_cpu) ns += on_cpu;
  }
  closedir(dir);
  return static_cast<double>(ns) / 1e9;
}

struct StartupSample {
  double cpu_s = 0;
  double wall_s = 0;
};

// `kestrel VERB ARGS` from exec to the line saying it is attached; then
// `while_attached` runs, and the child is stopped.
// `all_fillers` loads every filler at start (the CLI's debug switch
// KESTREL_LOAD_ALL_FILLERS=1), the load every start paid before.
template <typename WhileAttached>
absl::StatusOr<StartupSample> TimeToAttached(const std::string& verb,
                                             const std::vector<std::string>& args, bool all_fillers,
                                             WhileAttached&& while_attached) {
  const Clock::time_point start = Clock::now();
  if (all_fillers) setenv("KESTREL_LOAD_ALL_FILLERS", "1", 1);
  absl::StatusOr<KestrelRunChild> child = KestrelRunChild::StartVerb(verb, args);
  unsetenv("KESTREL_LOAD_ALL_FILLERS");
  if (!child.ok()) return child.status();
  const Clock::time_point deadline = start + std::chrono::milliseconds(kAttachTimeoutMs);
  while (Clock::now() < deadline) {
    for (const std::string& line : child->Read(100)) {
      if (line.find(": attached in ") == std::string::npos) continue;
      StartupSample sample;
      sample.cpu_s = ProcessCpuSeconds(child->pid());
      sample.wall_s = std::chrono::duration<double>(Clock::now() - start).count();
      while_attached();
      if (const int status = child->Stop(); status != 0) {
        return absl::InternalError(
            absl::StrFormat("kestrel %s exited with status %d after attaching", verb, status));
      }
      return sample;
    }
  }
  const std::string last = child->lines().empty() ? "nothing" : child->lines().back();
  return absl::DeadlineExceededError(
      absl::StrFormat("kestrel %s did not say it was attached within %d s (its last line: %s)",
                      verb, kAttachTimeoutMs / 1000, last));
}

// The interesting-syscall table of the capture pinned at kPinDir.
absl::StatusOr<std::vector<uint8_t>> PinnedSyscallTable() {
  pman_control* control = nullptr;
  if (pman_control_open(kPinDir, nullptr, nullptr, &control) != 0) {
    return absl::InternalError(absl::StrFormat("cannot open the capture pinned at %s", kPinDir));
  }
  std::vector<uint8_t> table(pman_syscall_table_size(), 0);
  for (uint32_t id = 0; id < table.size(); ++id) {
    table[id] = pman_control_is_syscall_interesting(control, id) == 1 ? 1 : 0;
  }
  pman_control_close(control);
  return table;
}

// A probe of this process, loaded (fillers as `table` needs them, or all
// with `flags`), attached, tracing only this process.
absl::StatusOr<agent::HandlePtr> LoadProbeInThisProcess(const std::vector<uint8_t>& table,
                                                        uint32_t flags) {
  pman_options options;
  pman_default_options(&options);
  options.flags |= flags;
  options.buffer_bytes = PMAN_BUFFER_BYTES_SMALL;
  pman_handle* raw = nullptr;
  if (pman_init(&options, &raw) != 0) return absl::InternalError("pman_init failed");
  agent::HandlePtr handle(raw);
  kestrel_capture_settings settings{};
  if (pman_open(raw) != 0 || pman_load(raw) != 0 ||
      pman_get_capture_settings(raw, &settings) != 0) {
    return absl::InternalError("loading the probe failed");
  }
  settings.own_tgid = 0;
  settings.target_tgid = static_cast<uint32_t>(getpid());
  if (pman_update_capture_settings(raw, &settings) != 0 ||
      pman_enforce_sc_set(raw, table.data(), table.size()) != 0 || pman_attach(raw) != 0) {
    return absl::InternalError("setting up the probe failed");
  }
  return handle;
}

// Per-program verification of one load, as libpman measured it.
struct ProgramCost {
  std::string name;
  double verified_insns = 0;
  double verify_ms = 0;
};

std::vector<ProgramCost> ProgramCosts(pman_handle* h) {
  const int count = pman_get_program_stats(h, nullptr, 0);
  if (count <= 0) return {};
  std::vector<pman_program_stats> stats(static_cast<size_t>(count));
  const int n = pman_get_program_stats(h, stats.data(), stats.size());
  std::vector<ProgramCost> out;
  for (int i = 0; i < n && static_cast<size_t>(i) < stats.size(); ++i) {
    if (!stats[i].loaded) continue;
    out.push_back({stats[i].name, static_cast<double>(stats[i].verified_insns),
                   static_cast<double>(stats[i].verification_time_us) / 1e3});
  }
  return out;
}

// From marking openat interesting (its filler not loaded yet) to the first
// openat record with all its parameters, in ms, while a thread of this
// process opens /dev/null every 100 µs.
absl::StatusOr<double> LiveEnableMs() {
  std::vector<uint8_t> table(pman_syscall_table_size(), 0);
  table[SYS_getppid] = 1;
  absl::StatusOr<agent::HandlePtr> probe = LoadProbeInThisProcess(table, 0);
  if (!probe.ok()) return probe.status();
  pman_handle* h = probe->get();
  std::atomic<bool> stop{false};
  std::thread opener([&stop] {
    while (!stop.load(std::memory_order_relaxed)) {
      close(open("/dev/null", O_RDONLY));
      usleep(100);
    }
  });
  const Clock::time_point start = Clock::now();
  std::optional<double> ms;
  if (pman_mark_single_64bit_syscall(h, SYS_openat, true) == 0) {
    const Clock::time_point deadline = start + std::chrono::seconds(10);
    while (!ms && Clock::now() < deadline) {
      pman_wait_for_events(h, 10);
      void* record = nullptr;
      int16_t ring = 0;
      while (!ms && pman_consume_first_event(h, &record, &ring) == 0 && record != nullptr) {
        const auto* hdr = static_cast<const kestrel_record_header*>(record);
        if (hdr->type == KESTREL_EVT_OPENAT && !(hdr->flags & KESTREL_RECORD_PARAMS_MISSING)) {
          ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
        }
      }
    }
  }
  stop = true;
  opener.join();
  if (!ms) return absl::InternalError("no complete openat record within 10 s of enabling openat");
  return *ms;
}

BenchRow SecondsRow(const std::string& name, const std::vector<double>& values) {
  return Row(name, Median(values), "s");
}

}  // namespace

absl::StatusOr<BenchReport> RunStartupBench(const StartupBenchOptions& options) {
  BenchReport report;
  report.mode = "startup";
  const std::string rules_name =
      options.rules_file.empty() ? "Kestrel's default rules" : options.rules_file;
  std::vector<std::string> run_args = {"--pin-dir", kPinDir};
  if (!options.rules_file.empty()) run_args.insert(run_args.begin(), {"-r", options.rules_file});
  const std::vector<std::string> capture_args = {"--syscalls", "getppid"};

  std::vector<double> capture_cpu, capture_wall, capture_eager_cpu, capture_eager_wall;
  std::vector<double> run_cpu, run_wall, run_eager_cpu, run_eager_wall;
  std::vector<uint8_t> run_table;
  const auto nothing = [] {};
  for (int rep = 0; rep < options.repetitions; ++rep) {
    // Alternate which build of the load goes first, so a machine that
    // warms up or slows down during the run favours neither.
    const bool eager_first = rep % 2 == 1;
    for (int half = 0; half < 2; ++half) {
      const bool eager = (half == 0) == eager_first;
      absl::StatusOr<StartupSample> c = TimeToAttached("capture", capture_args, eager, nothing);
      if (!c.ok()) return c.status();
      (eager ? capture_eager_cpu : capture_cpu).push_back(c->cpu_s);
      (eager ? capture_eager_wall : capture_wall).push_back(c->wall_s);
      absl::Status table_status = absl::OkStatus();
      absl::StatusOr<StartupSample> r = TimeToAttached("run", run_args, eager, [&] {
        if (!run_table.empty()) return;
        absl::StatusOr<std::vector<uint8_t>> table = PinnedSyscallTable();
        if (table.ok())
          run_table = *std::move(table);
        else
          table_status = table.status();
      });
      if (!r.ok()) return r.status();
      if (!table_status.ok()) return table_status;
      (eager ? run_eager_cpu : run_cpu).push_back(r->cpu_s);
      (eager ? run_eager_wall : run_wall).push_back(r->wall_s);
    }
  }

  BenchRow capture = SecondsRow("capture --syscalls getppid: CPU to attached", capture_cpu);
  capture.note = Judge(capture, capture.value, kCaptureCpuTargetS);
  BenchRow capture_eager =
      SecondsRow("capture --syscalls getppid, every filler loaded: CPU", capture_eager_cpu);
  capture_eager.ratio = Median(PairedRatios(capture_eager_cpu, capture_cpu));
  capture_eager.ratio_of = capture.name;
  report.rows.push_back(capture);
  report.rows.push_back(capture_eager);
  report.rows.push_back(SecondsRow("capture --syscalls getppid: wall to attached", capture_wall));
  report.rows.push_back(
      SecondsRow("capture --syscalls getppid, every filler loaded: wall", capture_eager_wall));

  BenchRow run_eager = SecondsRow("run, every filler loaded: CPU to attached", run_eager_cpu);
  BenchRow run = SecondsRow("run: CPU to attached", run_cpu);
  run.ratio = Median(PairedRatios(run_cpu, run_eager_cpu));
  run.ratio_of = run_eager.name;
  const std::string run_value_verdict = TargetVerdict(run.value, kRunCpuTargetS);
  const std::string run_ratio_verdict = Judge(run, *run.ratio, kRunLazyOverEagerTarget);
  run.note =
      absl::StrFormat("%s: <= %.1f s %s; <= %.2fx of every filler %s", rules_name, kRunCpuTargetS,
                      run_value_verdict, kRunLazyOverEagerTarget, run_ratio_verdict);
  if (run.value > kRunCpuTargetS) {
    run.met = false;
    run.missed_by_pct =
        std::max(run.missed_by_pct, (run.value - kRunCpuTargetS) / kRunCpuTargetS * 100);
  }
  report.rows.push_back(run);
  report.rows.push_back(run_eager);
  report.rows.push_back(SecondsRow("run: wall to attached", run_wall));
  report.rows.push_back(SecondsRow("run, every filler loaded: wall to attached", run_eager_wall));

  absl::StatusOr<double> live = LiveEnableMs();
  if (!live.ok()) return live.status();
  BenchRow live_row =
      Row("openat enabled live, filler not loaded: ms to its first record", *live, "ms");
  live_row.note = Judge(live_row, *live, kLiveEnableTargetMs);
  report.rows.push_back(live_row);

  // What the run's load is made of: each program its syscall set loads,
  // most expensive first, then every program of the probe.
  for (const bool eager : {false, true}) {
    absl::StatusOr<agent::HandlePtr> probe =
        LoadProbeInThisProcess(run_table, eager ? PMAN_OPT_LOAD_ALL_FILLERS : 0);
    if (!probe.ok()) return probe.status();
    std::vector<ProgramCost> costs = ProgramCosts(probe->get());
    std::sort(costs.begin(), costs.end(),
              [](const ProgramCost& a, const ProgramCost& b) { return a.verify_ms > b.verify_ms; });
    double insns = 0, ms = 0;
    for (const ProgramCost& c : costs) {
      insns += c.verified_insns;
      ms += c.verify_ms;
    }
    const std::string what = eager ? "every filler" : "the run's syscalls";
    BenchRow total =
        Row(absl::StrFormat("%s: verification, %zu programs", what, costs.size()), ms, "ms");
    total.note = absl::StrFormat("%.0f instructions verified", insns);
    report.rows.push_back(total);
    if (eager) continue;
    for (const ProgramCost& c : costs) {
      BenchRow row = Row(absl::StrFormat("  program %s: verification", c.name), c.verify_ms, "ms");
      row.note = absl::StrFormat("%.0f instructions verified", c.verified_insns);
      report.rows.push_back(row);
    }
  }
  report.notes.push_back(absl::StrFormat(
      "%d repetitions, alternating the two loads; CPU is user + system time of every thread "
      "(schedstat) from exec to the \"attached\" line; run: %s, %d syscalls",
      options.repetitions, rules_name,
      static_cast<int>(std::count(run_table.begin(), run_table.end(), 1))));
  return report;
}

}  // namespace kestrel::bench
