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
#include "libpman.h"
#include "libpman_recorder.h"

namespace kestrel::cli::bench {
namespace {

using Clock = std::chrono::steady_clock;

void Quiet(void*, pman_log_level, const char*) {}

// ns per getppid over `calls` calls on this thread.
double TimeGetppid(uint64_t calls) {
  const auto start = Clock::now();
  for (uint64_t i = 0; i < calls; ++i) syscall(SYS_getppid);
  return std::chrono::duration<double, std::nano>(Clock::now() - start).count() /
         static_cast<double>(calls);
}

// The median of `reps` runs of `measure`, with `between` run between reps.
double Median(int reps, const std::function<double()>& measure,
              const std::function<void()>& between = [] {}) {
  std::vector<double> samples;
  for (int i = 0; i < reps; ++i) {
    samples.push_back(measure());
    between();
  }
  std::sort(samples.begin(), samples.end());
  return samples[samples.size() / 2];
}

// Aggregate getppid/s of one thread per CPU (up to two) for `calls` each.
double TwoThreadRate(uint64_t calls) {
  const unsigned n = std::min(2u, std::max(1u, std::thread::hardware_concurrency()));
  std::atomic<unsigned> ready{0};
  std::atomic<bool> go{false};
  std::vector<std::thread> threads;
  for (unsigned cpu = 0; cpu < n; ++cpu) {
    threads.emplace_back([&, cpu] {
      cpu_set_t set;
      CPU_ZERO(&set);
      CPU_SET(cpu, &set);
      sched_setaffinity(0, sizeof(set), &set);
      ++ready;
      while (!go.load()) {
      }
      for (uint64_t i = 0; i < calls; ++i) syscall(SYS_getppid);
    });
  }
  while (ready.load() < n) {
  }
  const auto start = Clock::now();
  go = true;
  for (std::thread& t : threads) t.join();
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return static_cast<double>(calls) * n / seconds;
}

struct HandleCloser {
  void operator()(pman_handle* h) const { pman_close(h); }
};

// The ring-buffer probe recording getppid of this process only.
absl::StatusOr<std::unique_ptr<pman_handle, HandleCloser>> StartRingProbe() {
  pman_options o;
  pman_default_options(&o);
  o.buffer_bytes = 64ULL << 20;
  o.log_fn = Quiet;
  pman_handle* raw = nullptr;
  if (pman_init(&o, &raw) != 0) return absl::InternalError("pman_init failed");
  std::unique_ptr<pman_handle, HandleCloser> h(raw);
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
  BenchRecorder(const RecorderBenchOptions& options, bool per_cpu)
      : root_(absl::StrFormat("%s/kestrel-bench-%d", options.pin_root, getpid())),
        name_(per_cpu ? "per-cpu" : "shared") {
    pman_recorder_options o = Options();
    o.size_bytes = options.recorder_bytes;
    o.per_cpu = per_cpu;
    std::vector<uint8_t> table(pman_syscall_table_size(), 0);
    table[SYS_getppid] = 1;
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

BenchRow Row(const std::string& name, double value, const std::string& unit) {
  BenchRow r;
  r.name = name;
  r.value = value;
  r.unit = unit;
  return r;
}

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
  if (options.calls_per_rep == 0 || options.reps <= 0) {
    return absl::InvalidArgumentError("calls_per_rep and reps must be positive");
  }
  const uint64_t calls = options.calls_per_rep;
  const int reps = options.reps;
  BenchReport report;
  report.mode = "rings";
  report.notes.push_back(absl::StrFormat(
      "recorder rows: median of %d x %u getppid; recorders of %u bytes; %u CPUs", reps, calls,
      options.recorder_bytes, std::thread::hardware_concurrency()));

  const BenchRow bare = Row("getppid, no probe", Median(reps, [&] { return TimeGetppid(calls); }),
                            "ns/syscall");
  BenchRow ring;
  {
    absl::StatusOr<std::unique_ptr<pman_handle, HandleCloser>> probe = StartRingProbe();
    if (!probe.ok()) return probe.status();
    pman_handle* h = probe->get();
    ring = Row("getppid, recorded by the ring-buffer probe",
               Median(reps, [&] { return TimeGetppid(calls); }, [&] { Drain(h); }), "ns/syscall");
  }
  double recorder_ns[2] = {0, 0};
  double recorder_rate[2] = {0, 0};
  for (bool per_cpu : {false, true}) {
    BenchRecorder recorder(options, per_cpu);
    if (!recorder.started()) {
      return absl::FailedPreconditionError("starting a bench recorder failed");
    }
    recorder_ns[per_cpu] = Median(reps, [&] { return TimeGetppid(calls); });
    recorder_rate[per_cpu] = Median(reps, [&] { return TwoThreadRate(calls); });
  }
  const BenchRow shared = Row("getppid, recorded by a recorder (shared ring)", recorder_ns[0],
                              "ns/syscall");
  const BenchRow per_cpu = Row("getppid, recorded by a recorder (per-CPU rings)",
                               recorder_ns[1], "ns/syscall");
  const BenchRow ring_added =
      Row("added per record: ring-buffer probe", ring.value - bare.value, "ns/record");
  report.rows = {bare, ring, shared, per_cpu, ring_added};
  report.rows.push_back(RatioRow("added per record: recorder (shared ring)",
                                 shared.value - bare.value, "ns/record", ring_added));
  report.rows.push_back(RatioRow("added per record: recorder (per-CPU rings)",
                                 per_cpu.value - bare.value, "ns/record", ring_added));
  const BenchRow rate_shared =
      Row("2 threads on 2 CPUs, recorder (shared ring)", recorder_rate[0], "records/s");
  report.rows.push_back(rate_shared);
  report.rows.push_back(RatioRow("2 threads on 2 CPUs, recorder (per-CPU rings)",
                                 recorder_rate[1], "records/s", rate_shared));
  return report;
}

}  // namespace kestrel::cli::bench
