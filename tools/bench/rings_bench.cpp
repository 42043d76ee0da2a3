#include "bench/rings_bench.h"

#include <linux/bpf.h>
#include <pthread.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <ctime>
#include <functional>
#include <map>
#include <memory>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"
#include "agent/probe/probe_loader.h"
#include "bench/bench_stats.h"
#include "bench/raw_ring_producer.h"
#include "bench/syscall_loop.h"
#include "libpman.h"
#include "shared/mpsc_ring_format.h"
#include "shared/record_format.h"

namespace kestrel::bench {
namespace {

constexpr int kLoadThreads = 2;

// One timed run of one configuration.
struct RunResult {
  double seconds = 0;
  uint64_t syscalls = 0;
  uint64_t consumed = 0;
  uint64_t dropped = 0;
  double consumer_cpu_s = 0;
  uint64_t memory_bytes = 0;
  uint64_t inversions = 0;  // records with a smaller timestamp than the one before
};

void PinCurrentThread(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

// A source of records the consumer thread drains: returns how many it read
// (0 when empty), and waits a little when there is nothing.
struct Source {
  std::function<uint64_t()> drain;
  std::function<void()> wait;
};

// Two threads pinned to CPUs 0 and 1 call getppid as fast as they can while
// one unpinned consumer drains `source`, for `seconds`.
RunResult Measure(const Source& source, double seconds) {
  std::atomic<bool> go{false}, stop{false}, consumer_stop{false};
  std::atomic<uint64_t> syscalls{0};
  std::vector<std::thread> load;
  const unsigned cpus = std::max(1u, std::thread::hardware_concurrency());
  for (int i = 0; i < kLoadThreads; ++i) {
    load.emplace_back([&, i] {
      PinCurrentThread(static_cast<int>(i % cpus));
      while (!go) sched_yield();
      uint64_t n = 0;
      while (!stop.load(std::memory_order_relaxed)) {
        for (int k = 0; k < 64; ++k) syscall(SYS_getppid);
        n += 64;
      }
      syscalls += n;
    });
  }
  RunResult r;
  std::thread consumer([&] {
    const double cpu0 = ThreadCpuSeconds();
    for (;;) {
      const uint64_t n = source.drain();
      r.consumed += n;
      if (n == 0) {
        if (consumer_stop) break;
        source.wait();
      }
    }
    r.consumer_cpu_s = ThreadCpuSeconds() - cpu0;
  });
  const auto start = std::chrono::steady_clock::now();
  go = true;
  std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
  stop = true;
  for (std::thread& t : load) t.join();
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  consumer_stop = true;
  consumer.join();
  r.syscalls = syscalls;
  return r;
}

void LogNothing(void*, pman_log_level, const char*) {}

// The probe loaded (not attached) to capture this process's getppid calls.
absl::StatusOr<agent::HandlePtr> LoadProbeForGetppid(uint32_t cpus_per_buffer,
                                                     uint64_t ring_bytes) {
  pman_options o;
  pman_default_options(&o);
  o.cpus_per_buffer = cpus_per_buffer;
  o.buffer_bytes = ring_bytes;
  o.log_fn = LogNothing;
  pman_handle* raw = nullptr;
  if (int rc = pman_init(&o, &raw); rc != 0) return absl::ErrnoToStatus(-rc, "pman_init");
  agent::HandlePtr h(raw);
  if (int rc = pman_open(raw); rc != 0) return absl::ErrnoToStatus(-rc, "pman_open");
  if (int rc = pman_load(raw); rc != 0) return absl::ErrnoToStatus(-rc, "pman_load");
  kestrel_capture_settings s{};
  if (int rc = pman_get_capture_settings(raw, &s); rc != 0) {
    return absl::ErrnoToStatus(-rc, "pman_get_capture_settings");
  }
  s.own_tgid = 0;
  s.target_tgid = static_cast<uint32_t>(getpid());
  if (int rc = pman_update_capture_settings(raw, &s); rc != 0) {
    return absl::ErrnoToStatus(-rc, "pman_update_capture_settings");
  }
  if (int rc = pman_mark_single_64bit_syscall(raw, SYS_getppid, true); rc != 0) {
    return absl::ErrnoToStatus(-rc, "pman_mark_single_64bit_syscall");
  }
  return h;
}

// What the reads of the probe's rings have seen so far.
struct ProbeReadTally {
  uint64_t records = 0;
  uint64_t ring_bytes = 0;  // ring space of those records, ring headers included
  uint64_t inversions = 0;  // records with a smaller timestamp than the one before
  uint64_t last_ts = 0;
};

// Reads every record now in the probe's rings, in timestamp order; returns
// how many.
uint64_t DrainProbe(pman_handle* h, ProbeReadTally& tally) {
  const uint64_t before = tally.records;
  for (;;) {
    void* record = nullptr;
    int16_t ring = 0;
    if (pman_consume_first_event(h, &record, &ring) != 0 || record == nullptr) break;
    const auto* hdr = static_cast<const kestrel_record_header*>(record);
    tally.inversions += hdr->ts_ns < tally.last_ts;
    tally.last_ts = hdr->ts_ns;
    // The probe is loaded with its default rings, MPSC rings.
    tally.ring_bytes += KESTREL_MPSC_ROUND(hdr->len);
    ++tally.records;
  }
  return tally.records - before;
}

absl::StatusOr<RunResult> RunProbe(uint32_t cpus_per_buffer, uint64_t ring_bytes, double seconds) {
  absl::StatusOr<agent::HandlePtr> h = LoadProbeForGetppid(cpus_per_buffer, ring_bytes);
  if (!h.ok()) return h.status();
  pman_handle* raw = h->get();
  pman_stats before{};
  if (int rc = pman_get_stats(raw, &before, nullptr, 0); rc != 0) {
    return absl::ErrnoToStatus(-rc, "pman_get_stats");
  }
  if (int rc = pman_attach(raw); rc != 0) return absl::ErrnoToStatus(-rc, "pman_attach");

  ProbeReadTally tally;
  Source source{
      .drain = [&] { return DrainProbe(raw, tally); },
      .wait = [&] { pman_wait_for_events(raw, 10); },
  };
  RunResult r = Measure(source, seconds);
  pman_detach(raw);
  r.consumed += source.drain();
  r.inversions = tally.inversions;
  pman_stats after{};
  if (int rc = pman_get_stats(raw, &after, nullptr, 0); rc != 0) {
    return absl::ErrnoToStatus(-rc, "pman_get_stats");
  }
  r.dropped = after.total.drops_ring_full - before.total.drops_ring_full;
  r.memory_bytes = after.locked_bytes;
  return r;
}

absl::StatusOr<RunResult> RunRaw(bool per_cpu, uint64_t ring_bytes, uint32_t batch,
                                 double seconds) {
  absl::StatusOr<std::unique_ptr<RawRingProducer>> p =
      RawRingProducer::Start(per_cpu, ring_bytes, batch);
  if (!p.ok()) return p.status();
  // No wakeups: the consumer polls, as fast as a reader of this ring can.
  Source source{
      .drain = [&] { return (*p)->Drain(); },
      .wait = [] { std::this_thread::sleep_for(std::chrono::microseconds(200)); },
  };
  RunResult r = Measure(source, seconds);
  absl::StatusOr<uint64_t> dropped = (*p)->Dropped();
  if (!dropped.ok()) return dropped.status();
  r.dropped = *dropped;
  r.memory_bytes = (*p)->memory_bytes();
  return r;
}

// The transport alone: how fast a reader empties a ring that already holds
// a backlog, with no producer running. The same ring size and topology for
// the probe read through libpman (zero-copy consume, merge across rings) and
// for the bench producer's records read with the bare ring reader.
struct DrainResult {
  uint64_t records = 0;
  uint64_t ring_bytes = 0;  // ring space the records took, ring headers included
  double seconds = 0;
};

// The bench producer's records are 64 bytes (bpf/bench_producer.bpf.c); in
// its BPF ring buffer each takes its 8-byte ring header more, rounded to 8.
constexpr uint64_t kRawRecordBytes = 64;
constexpr uint64_t kRawRecordRingBytes = (kRawRecordBytes + BPF_RINGBUF_HDR_SZ + 7) & ~7ULL;

// Calls getppid on CPU 0 `calls` times: what fills the rings.
void FillFromCpu0(uint64_t calls) {
  std::thread filler([calls] {
    PinCurrentThread(0);
    for (uint64_t i = 0; i < calls; ++i) syscall(SYS_getppid);
  });
  filler.join();
}

// `drain` fills in records and ring_bytes.
template <typename DrainFn>
DrainResult TimeDrain(DrainFn&& drain) {
  const auto start = std::chrono::steady_clock::now();
  DrainResult d;
  drain(d);
  d.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return d;
}

// Records of a backlog: half a ring of the probe's generic records (~120
// bytes with the ring's header), so none is dropped.
uint64_t BacklogRecords(uint64_t ring_bytes) { return ring_bytes / 2 / 128; }

absl::StatusOr<DrainResult> DrainProbeBacklog(uint32_t cpus_per_buffer, uint64_t ring_bytes) {
  absl::StatusOr<agent::HandlePtr> h = LoadProbeForGetppid(cpus_per_buffer, ring_bytes);
  if (!h.ok()) return h.status();
  if (int rc = pman_attach(h->get()); rc != 0) return absl::ErrnoToStatus(-rc, "pman_attach");
  FillFromCpu0(BacklogRecords(ring_bytes));
  pman_detach(h->get());
  return TimeDrain([&](DrainResult& d) {
    ProbeReadTally tally;
    DrainProbe(h->get(), tally);
    d.records = tally.records;
    d.ring_bytes = tally.ring_bytes;
  });
}

absl::StatusOr<DrainResult> DrainRawBacklog(bool per_cpu, uint64_t ring_bytes) {
  absl::StatusOr<std::unique_ptr<RawRingProducer>> p =
      RawRingProducer::Start(per_cpu, ring_bytes, 1);
  if (!p.ok()) return p.status();
  // 64-byte records: twice as many fit, so the raw ring holds as many
  // records in less memory and the read is of the same count.
  FillFromCpu0(BacklogRecords(ring_bytes));
  return TimeDrain([&](DrainResult& d) {
    d.records = (*p)->Drain();
    d.ring_bytes = d.records * kRawRecordRingBytes;
  });
}

struct Config {
  std::string name;
  std::function<absl::StatusOr<RunResult>()> run;
  std::string same_shape;  // the raw configuration writing one record per syscall like this one
  std::string ceiling;     // the raw batched configuration: the ring's transport ceiling
};

// Per-repetition rates of one reader.
struct DrainSamples {
  std::vector<double> records_per_s;
  std::vector<double> bytes_per_s;

  absl::Status Add(const absl::StatusOr<DrainResult>& d) {
    if (!d.ok()) return d.status();
    if (d->records == 0 || d->seconds <= 0) {
      return absl::InternalError("the backlog was empty: nothing reached the ring");
    }
    records_per_s.push_back(d->records / d->seconds);
    bytes_per_s.push_back(d->ring_bytes / d->seconds);
    return absl::OkStatus();
  }
};

// The raw reader's and libpman's drains of one topology, interleaved
// repetition by repetition (which goes first alternating), so the machine's
// drift over the run weighs on both alike.
struct BacklogDrains {
  DrainSamples raw;
  DrainSamples libpman;
};

absl::StatusOr<BacklogDrains> DrainBacklogsSideBySide(int repetitions, bool per_cpu,
                                                      uint64_t ring_bytes) {
  BacklogDrains drains;
  for (int rep = 0; rep < repetitions; ++rep) {
    for (int turn = 0; turn < 2; ++turn) {
      const bool raw_turn = (rep + turn) % 2 == 0;
      absl::Status s = raw_turn
                           ? drains.raw.Add(DrainRawBacklog(per_cpu, ring_bytes))
                           : drains.libpman.Add(DrainProbeBacklog(per_cpu ? 1 : 0, ring_bytes));
      if (!s.ok()) return s;
    }
  }
  return drains;
}

// The transport alone: a backlog drained through libpman
// (pman_consume_first_event: zero-copy, merged across rings) must reach this
// share of the ring bytes/s the raw reader drains from the bench producer's
// ring of the same size and topology, in the same run. Judged on bytes/s
// because a drain streams ring memory and the probe's generic records are
// larger than the producer's; records/s is reported beside it.
constexpr double kTransportTarget = 0.8;

// Four rows per topology: ring bytes/s then records/s, raw reader then
// libpman, libpman's bytes/s judged against the raw reader's.
void AddBacklogRows(const char* topology, const BacklogDrains& drains, BenchReport& report) {
  const double raw_bytes = Median(drains.raw.bytes_per_s);
  const double raw_records = Median(drains.raw.records_per_s);
  const double libpman_bytes = Median(drains.libpman.bytes_per_s);
  const double libpman_records = Median(drains.libpman.records_per_s);

  BenchRow raw_bytes_row = Row(absl::StrFormat("backlog drain, raw reader, %s", topology),
                               raw_bytes / 1e6, "MB/s of ring");
  BenchRow libpman_bytes_row = Row(absl::StrFormat("backlog drain, libpman consume, %s", topology),
                                   libpman_bytes / 1e6, "MB/s of ring");
  libpman_bytes_row.ratio = libpman_bytes / raw_bytes;
  libpman_bytes_row.ratio_of = raw_bytes_row.name;
  // Interleaved, each repetition's pair saw the same moment of the machine.
  const std::vector<double> paired =
      PairedRatios(drains.libpman.bytes_per_s, drains.raw.bytes_per_s);
  const auto [lo, hi] = std::minmax_element(paired.begin(), paired.end());
  libpman_bytes_row.note = absl::StrFormat(
      "%s; repetitions alone %.2f-%.2fx",
      Judge(libpman_bytes_row, *libpman_bytes_row.ratio, kTransportTarget, true), *lo, *hi);

  BenchRow raw_records_row =
      Row(absl::StrFormat("backlog drain, raw reader, %s: records", topology), raw_records,
          "records/s");
  raw_records_row.note = "64-byte records";
  BenchRow libpman_records_row =
      Row(absl::StrFormat("backlog drain, libpman consume, %s: records", topology), libpman_records,
          "records/s");
  libpman_records_row.ratio = libpman_records / raw_records;
  libpman_records_row.ratio_of = raw_records_row.name;
  libpman_records_row.note = "the probe's generic records, larger: not judged";

  report.rows.push_back(raw_bytes_row);
  report.rows.push_back(libpman_bytes_row);
  report.rows.push_back(raw_records_row);
  report.rows.push_back(libpman_records_row);
}

}  // namespace

absl::StatusOr<BenchReport> RunRingsBench(const RingsBenchOptions& options) {
  const double secs = options.seconds_per_run;
  const uint64_t bytes = options.ring_bytes;
  const uint32_t batch = options.raw_batch;
  const std::string raw_shared = "raw ringbuf, shared ring, 1 record/syscall";
  const std::string raw_per_cpu = "raw ringbuf, ring per CPU, 1 record/syscall";
  const std::string batched_shared =
      absl::StrFormat("raw ringbuf, shared ring, %u records/syscall", batch);
  const std::string batched_per_cpu =
      absl::StrFormat("raw ringbuf, ring per CPU, %u records/syscall", batch);
  const std::vector<Config> configs = {
      {raw_shared, [&] { return RunRaw(false, bytes, 1, secs); }, "", ""},
      {raw_per_cpu, [&] { return RunRaw(true, bytes, 1, secs); }, "", ""},
      {batched_shared, [&] { return RunRaw(false, bytes, batch, secs); }, "", ""},
      {batched_per_cpu, [&] { return RunRaw(true, bytes, batch, secs); }, "", ""},
      {"probe, shared ring", [&] { return RunProbe(0, bytes, secs); }, raw_shared, batched_shared},
      {"probe, ring per CPU", [&] { return RunProbe(1, bytes, secs); }, raw_per_cpu,
       batched_per_cpu},
  };

  BenchReport report;
  report.mode = "rings";
  report.notes.push_back(absl::StrFormat(
      "%d load threads pinned to CPUs 0 and 1 calling getppid, one unpinned consumer; "
      "%u CPUs; rings of %u bytes; median of %d runs of %.1f s",
      kLoadThreads, std::thread::hardware_concurrency(), bytes, options.repetitions, secs));
  std::map<std::string, double> rate_of;
  for (const Config& c : configs) {
    std::vector<double> rate, drop_pct, syscall_rate, cpu_per_m, memory, inversions_per_m;
    for (int rep = 0; rep < options.repetitions; ++rep) {
      absl::StatusOr<RunResult> r = c.run();
      if (!r.ok()) {
        return absl::Status(r.status().code(),
                            absl::StrFormat("%s: %s", c.name, r.status().message()));
      }
      const double produced = static_cast<double>(r->consumed + r->dropped);
      rate.push_back(r->consumed / r->seconds);
      drop_pct.push_back(produced > 0 ? 100.0 * r->dropped / produced : 0);
      syscall_rate.push_back(r->syscalls / r->seconds);
      cpu_per_m.push_back(r->consumed ? 1e3 * r->consumer_cpu_s / (r->consumed / 1e6) : 0);
      memory.push_back(r->memory_bytes / 1048576.0);
      inversions_per_m.push_back(r->consumed ? r->inversions / (r->consumed / 1e6) : 0);
    }
    BenchRow throughput = Row(c.name + ": records/s to user space", Median(rate), "records/s");
    if (!c.same_shape.empty() && rate_of.count(c.same_shape) && rate_of.count(c.ceiling)) {
      throughput.ratio = throughput.value / rate_of[c.same_shape];
      throughput.ratio_of = c.same_shape + ": records/s to user space";
      throughput.note = absl::StrFormat(
          "with producers: one record per syscall bounds this row (%.2fx the batched ceiling); "
          "the transport alone is judged on the backlog rows below",
          throughput.value / rate_of[c.ceiling]);
    }
    rate_of[c.name] = throughput.value;
    report.rows.push_back(throughput);
    report.rows.push_back(Row(c.name + ": dropped", Median(drop_pct), "% of records"));
    report.rows.push_back(
        Row(c.name + ": getppid calls/s (both threads)", Median(syscall_rate), "syscalls/s"));
    report.rows.push_back(Row(c.name + ": consumer CPU", Median(cpu_per_m), "ms per M records"));
    report.rows.push_back(Row(c.name + ": ring memory", Median(memory), "MiB"));
    if (c.ceiling.empty()) continue;
    report.rows.push_back(Row(c.name + ": timestamp inversions in the stream",
                              Median(inversions_per_m), "per M records"));
  }

  // The transport alone, without the syscalls that produce into it.
  report.notes.push_back(absl::StrFormat(
      "backlog rows: %u records written from CPU 0 with no reader, then drained alone; "
      "libpman = pman_consume_first_event (zero-copy, merged across rings), raw = the bare "
      "ring reader (libpman's, lent by internal/libpman_bench.h) on the bench producer's "
      "64-byte records; raw and libpman drains alternate repetition by repetition; judged on "
      "ring bytes/s because a drain streams ring memory and the probe's generic records are "
      "larger (records/s in the rows beside)",
      BacklogRecords(bytes)));
  for (const bool per_cpu : {false, true}) {
    absl::StatusOr<BacklogDrains> drains =
        DrainBacklogsSideBySide(options.repetitions, per_cpu, bytes);
    if (!drains.ok()) return drains.status();
    AddBacklogRows(per_cpu ? "ring per CPU" : "shared ring", *drains, report);
  }
  return report;
}

}  // namespace kestrel::bench
