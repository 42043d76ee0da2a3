#include "bench/recorder_bench.h"

#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"
#include "agent/probe/probe_loader.h"
#include "libpman.h"
#include "libpman_recorder.h"

namespace kestrel::bench {
namespace {

using Clock = std::chrono::steady_clock;

void Quiet(void*, pman_log_level, const char*) {}

// Every measurement compares syscalls that do the same trivial work, in
// alternating small batches, so the noise of a busy machine (other
// probes attached, other builds running) hits both sides alike:
//   getuid   never recorded: the baseline every probe pays for
//   getppid  recorded by the ring-buffer probe, or the shared recorder
//   getpid   recorded by the per-CPU recorder
constexpr uint64_t kCallsPerBatch = 100;

void Call(long nr, uint64_t n) {
  for (uint64_t i = 0; i < n; ++i) syscall(nr);
}

double ElapsedNs(Clock::time_point since) {
  return std::chrono::duration<double, std::nano>(Clock::now() - since).count();
}

// ns each syscall of `nrs` takes beyond getuid: the median over batch
// pairs, so a batch that got preempted does not move the result.
std::vector<double> NsOverGetuid(const std::vector<long>& nrs, uint64_t calls) {
  std::vector<std::vector<double>> diffs(nrs.size());
  for (uint64_t done = 0; done < calls; done += kCallsPerBatch) {
    auto t = Clock::now();
    Call(SYS_getuid, kCallsPerBatch);
    const double base = ElapsedNs(t);
    for (size_t i = 0; i < nrs.size(); ++i) {
      t = Clock::now();
      Call(nrs[i], kCallsPerBatch);
      diffs[i].push_back((ElapsedNs(t) - base) / kCallsPerBatch);
    }
  }
  std::vector<double> over;
  for (std::vector<double>& d : diffs) {
    std::nth_element(d.begin(), d.begin() + d.size() / 2, d.end());
    over.push_back(d[d.size() / 2]);
  }
  return over;
}

// Per column, the median over `reps` runs of `measure`; `between` runs
// after each.
std::vector<double> Medians(
    int reps, const std::function<std::vector<double>()>& measure,
    const std::function<void()>& between = [] {}) {
  std::vector<std::vector<double>> columns;
  for (int r = 0; r < reps; ++r) {
    const std::vector<double> sample = measure();
    columns.resize(sample.size());
    for (size_t i = 0; i < sample.size(); ++i) columns[i].push_back(sample[i]);
    between();
  }
  std::vector<double> medians;
  for (std::vector<double>& c : columns) {
    std::sort(c.begin(), c.end());
    medians.push_back(c[c.size() / 2]);
  }
  return medians;
}

// Syscalls/s of one thread per CPU (up to two) all calling `nr`, phase by
// phase: {getppid, getpid} -> rates, both threads in the same phase at once.
std::vector<double> TwoThreadRates(uint64_t calls) {
  const unsigned n = std::min(2u, std::max(1u, std::thread::hardware_concurrency()));
  constexpr long kPhases[] = {SYS_getppid, SYS_getpid};
  std::atomic<unsigned> arrived{0};
  auto barrier = [&](unsigned generation) {
    ++arrived;
    while (arrived.load() < n * generation) {
    }
  };
  std::vector<double> ns(std::size(kPhases), 0);
  std::vector<std::thread> threads;
  for (unsigned cpu = 0; cpu < n; ++cpu) {
    threads.emplace_back([&, cpu] {
      cpu_set_t set;
      CPU_ZERO(&set);
      CPU_SET(cpu, &set);
      sched_setaffinity(0, sizeof(set), &set);
      unsigned generation = 0;
      for (size_t p = 0; p < std::size(kPhases); ++p) {
        barrier(++generation);
        const auto t = Clock::now();
        Call(kPhases[p], calls);
        barrier(++generation);
        if (cpu == 0) ns[p] = ElapsedNs(t);
      }
    });
  }
  for (std::thread& t : threads) t.join();
  std::vector<double> rates;
  for (double v : ns) rates.push_back(static_cast<double>(calls) * n / (v / 1e9));
  return rates;
}

// The ring-buffer probe recording getppid of this process only.
absl::StatusOr<agent::HandlePtr> StartRingProbe() {
  pman_options o;
  pman_default_options(&o);
  o.buffer_bytes = 64ULL << 20;
  o.log_fn = Quiet;
  pman_handle* raw = nullptr;
  if (pman_init(&o, &raw) != 0) return absl::InternalError("pman_init failed");
  agent::HandlePtr h(raw);
  kestrel_capture_settings s{};
  if (pman_open(raw) != 0 || pman_load(raw) != 0 || pman_get_capture_settings(raw, &s) != 0) {
    return absl::FailedPreconditionError("loading the ring-buffer probe failed");
  }
  s.own_tgid = 0;
  s.target_tgid = static_cast<uint32_t>(getpid());
  if (pman_update_capture_settings(raw, &s) != 0 ||
      pman_mark_single_64bit_syscall(raw, SYS_getppid, true) != 0 || pman_attach(raw) != 0) {
    return absl::FailedPreconditionError("attaching the ring-buffer probe failed");
  }
  return h;
}

void Drain(pman_handle* h) {
  for (;;) {
    void* rec = nullptr;
    int16_t ring = 0;
    if (pman_consume_first_event(h, &rec, &ring) != 0 || rec == nullptr) return;
  }
}

// A recorder of getppid for this process, stopped when this goes away.
class BenchRecorder {
 public:
  BenchRecorder(const RecorderBenchOptions& options, bool per_cpu, long syscall_id)
      : root_(absl::StrFormat("%s/kestrel-bench-%d", options.pin_root, getpid())),
        name_(per_cpu ? "per-cpu" : "shared") {
    pman_recorder_options o = Options();
    o.size_bytes = options.recorder_bytes;
    o.per_cpu = per_cpu;
    std::vector<uint8_t> table(pman_syscall_table_size(), 0);
    table[static_cast<size_t>(syscall_id)] = 1;
    o.interesting = table.data();
    o.n_interesting = table.size();
    o.target_tgid = static_cast<uint32_t>(getpid());
    started_ = pman_recorder_start(&o) == 0;
  }
  ~BenchRecorder() {
    const pman_recorder_options o = Options();
    if (started_) pman_recorder_stop(&o);
    rmdir(root_.c_str());
  }
  bool started() const { return started_; }

 private:
  pman_recorder_options Options() const {
    pman_recorder_options o;
    pman_recorder_default_options(&o);
    o.pin_root = root_.c_str();
    o.name = name_.c_str();
    o.log_fn = Quiet;
    return o;
  }
  std::string root_;
  std::string name_;
  bool started_ = false;
};

BenchRow RatioRow(const std::string& name, double value, const std::string& unit,
                  const BenchRow& of) {
  BenchRow r = Row(name, value, unit);
  if (of.value > 0) {
    r.ratio = value / of.value;
    r.ratio_of = of.name;
  }
  return r;
}

}  // namespace

absl::StatusOr<BenchReport> RunRecorderBench(const RecorderBenchOptions& options) {
  if (options.calls_per_rep < kCallsPerBatch || options.reps <= 0) {
    return absl::InvalidArgumentError(
        absl::StrFormat("calls_per_rep must be at least %u and reps positive", kCallsPerBatch));
  }
  const uint64_t calls = options.calls_per_rep;
  const int reps = options.reps;
  BenchReport report;
  report.mode = "recorder";
  report.notes.push_back(absl::StrFormat(
      "recorder rows: medians of %d runs of %u calls; a record's cost is the median over "
      "alternating batches of %u of a recorded syscall's time beyond an unrecorded getuid; "
      "recorders of %u bytes; %u CPUs",
      reps, calls, kCallsPerBatch, options.recorder_bytes, std::thread::hardware_concurrency()));

  const std::vector<long> kRecorded = {SYS_getppid, SYS_getpid};
  // What getppid and getpid cost beyond getuid with none of our probes.
  const std::vector<double> native = Medians(reps, [&] { return NsOverGetuid(kRecorded, calls); });

  double ring_added = 0;
  {
    absl::StatusOr<agent::HandlePtr> probe = StartRingProbe();
    if (!probe.ok()) return probe.status();
    pman_handle* h = probe->get();
    ring_added = Medians(
        reps, [&] { return NsOverGetuid({SYS_getppid}, calls); }, [&] { Drain(h); })[0];
    ring_added -= native[0];
  }
  // Both recorders run at once, each on its own syscall.
  BenchRecorder shared(options, false, SYS_getppid);
  BenchRecorder per_cpu(options, true, SYS_getpid);
  if (!shared.started() || !per_cpu.started()) {
    return absl::FailedPreconditionError("starting the bench recorders failed");
  }
  const std::vector<double> added = Medians(reps, [&] { return NsOverGetuid(kRecorded, calls); });
  const std::vector<double> rates = Medians(reps, [&] { return TwoThreadRates(calls); });

  const BenchRow ring = Row("added per record: ring-buffer probe", ring_added, "ns/record");
  report.rows.push_back(ring);
  report.rows.push_back(
      RatioRow("added per record: recorder, shared ring", added[0] - native[0], "ns/record", ring));
  report.rows.push_back(RatioRow("added per record: recorder, per-CPU rings", added[1] - native[1],
                                 "ns/record", ring));
  const BenchRow rate_shared =
      Row("2 threads on 2 CPUs: recorder, shared ring", rates[0], "records/s");
  report.rows.push_back(rate_shared);
  report.rows.push_back(
      RatioRow("2 threads on 2 CPUs: recorder, per-CPU rings", rates[1], "records/s", rate_shared));
  return report;
}

}  // namespace kestrel::bench
