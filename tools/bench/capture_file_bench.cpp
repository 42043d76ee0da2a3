#include "bench/capture_file_bench.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_format.h"
#include "bench/bench_stats.h"
#include "bench/probe_under_test.h"
#include "bench/stored_stream.h"
#include "bench/syscall_loop.h"
#include "engine/capture_file/capture_reader.h"
#include "engine/capture_file/capture_writer.h"
#include "engine/output/event_printer.h"
#include "engine/state/thread_table.h"

namespace kestrel::bench {
namespace {

namespace cf = engine::capture_file;

constexpr double kReadTarget = 20e6;        // records/s on one core
constexpr double kWriterRatioTarget = 0.9;  // of the printing zero-drop rate
constexpr double kSearchWindowSeconds = 0.5;
constexpr int kSearchSteps = 5;
constexpr int kLevels[] = {0, 1, 3};

std::string TempPath(const std::string& what) {
  return absl::StrFormat("/tmp/kestrel-bench-capture-%d-%s.kcap", getpid(), what);
}

// Writes `records` records, cycling through `stream`, at zstd `level`;
// returns the writer's records/s of CPU time.
absl::StatusOr<double> WriteFile(const StoredStream& stream, uint64_t records, int level,
                                 const std::string& path) {
  cf::WriterOptions options;
  options.zstd_level = level;
  absl::StatusOr<std::unique_ptr<cf::CaptureWriter>> writer =
      cf::CaptureWriter::Create(path, cf::CaptureInfoOfThisMachine(), options);
  if (!writer.ok()) return writer.status();
  const double cpu = ThreadCpuSeconds();
  for (uint64_t i = 0; i < records; ++i) {
    const uint32_t at = stream.offsets[i % stream.offsets.size()];
    const auto* h = reinterpret_cast<const kestrel_record_header*>(stream.bytes.data() + at);
    if (absl::Status s = (*writer)->Append(h); !s.ok()) return s;
  }
  if (absl::Status s = (*writer)->Close(); !s.ok()) return s;
  const double seconds = ThreadCpuSeconds() - cpu;
  return seconds > 0 ? static_cast<double>(records) / seconds : 0;
}

// Opens `path` and walks every record as `capture -r` does before decoding;
// returns records/s of this thread's CPU time.
absl::StatusOr<double> ReadFile(const std::string& path, uint64_t expected) {
  const double cpu = ThreadCpuSeconds();
  absl::StatusOr<std::unique_ptr<cf::CaptureReader>> reader = cf::CaptureReader::Open(path);
  if (!reader.ok()) return reader.status();
  uint64_t n = 0, types = 0;
  while (const kestrel_record_header* h = (*reader)->Next()) {
    types += h->type;
    ++n;
  }
  const double seconds = ThreadCpuSeconds() - cpu;
  if (n != expected || (*reader)->damage() || types == 0) {
    return absl::InternalError(
        absl::StrFormat("read %u of %u records back from %s", n, expected, path));
  }
  return seconds > 0 ? static_cast<double>(n) / seconds : 0;
}

uint64_t FileBytes(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 ? static_cast<uint64_t>(st.st_size) : 0;
}

// The file rows: per level, bytes per record and write rate; the read rate
// of the default level's file.
absl::Status AddFileRows(const CaptureFileBenchOptions& options, BenchReport& report) {
  absl::StatusOr<StoredStream> stream =
      RecordMixedStream(std::min(options.stream_events, options.file_records));
  if (!stream.ok()) return stream.status();
  if (stream->offsets.empty()) return absl::InternalError("the stored stream is empty");
  const uint64_t records = options.file_records;
  std::vector<double> default_reads;
  for (const int level : kLevels) {
    const std::string path = TempPath(absl::StrCat("level", level));
    std::vector<double> writes, reads;
    uint64_t bytes = 0;
    for (int rep = 0; rep < options.repetitions; ++rep) {
      absl::StatusOr<double> w = WriteFile(*stream, records, level, path);
      if (!w.ok()) {
        unlink(path.c_str());
        return w.status();
      }
      writes.push_back(*w);
      bytes = FileBytes(path);
      absl::StatusOr<double> r = ReadFile(path, records);
      if (!r.ok()) {
        unlink(path.c_str());
        return r.status();
      }
      reads.push_back(*r);
    }
    unlink(path.c_str());
    const std::string label = level == 0 ? "stored" : absl::StrFormat("zstd level %d", level);
    BenchRow size = Row(absl::StrFormat("capture file, %s: bytes per record", label),
                        static_cast<double>(bytes) / static_cast<double>(records), "bytes/record");
    size.note = absl::StrFormat(
        "%.1f bytes/record as the records left the ring",
        static_cast<double>(stream->bytes.size()) / static_cast<double>(stream->offsets.size()));
    report.rows.push_back(size);
    report.rows.push_back(Row(absl::StrFormat("capture file, %s: write rate, one core", label),
                              Median(writes), "records/s"));
    BenchRow read =
        Row(absl::StrFormat("capture file, %s: read rate (decompress + iterate), one core", label),
            Median(reads), "records/s");
    if (level == 1) {
      read.note =
          absl::StrFormat("the default level; %s", Judge(read, read.value, kReadTarget, true));
    }
    report.rows.push_back(read);
  }
  report.notes.push_back(absl::StrFormat(
      "file rows: %u real records (mixed load, %u drops while recording) repeated to %u records "
      "per file; CPU time of one thread; median of %d",
      stream->offsets.size(), stream->drops, records, options.repetitions));
  return absl::OkStatus();
}

// One window of two paced getppid threads (on CPUs 0 and 1) against the
// attached probe, its consumer handing every record to the sink; returns
// the drops the probe counted and the records read per second.
struct Window {
  uint64_t drops = 0;
  double read_rate = 0;
  double issued_rate = 0;
};

absl::StatusOr<Window> RunWindow(ProbeUnderTest& probe, double rate, double seconds) {
  absl::StatusOr<kestrel_cpu_counters> before = probe.Totals();
  if (!before.ok()) return before.status();
  const uint64_t consumed_before = probe.consumed();
  probe.StartDrain({.cpu = -1});
  std::atomic<bool> go{false}, stop{false};
  std::atomic<uint64_t> issued{0};
  std::vector<std::thread> threads;
  for (int cpu = 0; cpu < 2; ++cpu) {
    threads.emplace_back([&, cpu] {
      (void)PinThisThread(cpu % OnlineCpus());
      while (!go.load()) std::this_thread::yield();
      issued.fetch_add(rate > 0 ? RunPacedUntilStopped(Workload::kGetppid, rate / 2, stop)
                                : RunUntilStopped(Workload::kGetppid, stop));
    });
  }
  absl::Status attached = probe.Attach();
  go = true;
  if (attached.ok()) usleep(static_cast<useconds_t>(seconds * 1e6));
  stop = true;
  for (std::thread& t : threads) t.join();
  const absl::Status detached = probe.Detach();
  // Let the consumer read what is left before it stops.
  for (uint64_t last = ~0ULL; last != probe.consumed();) {
    last = probe.consumed();
    usleep(20000);
  }
  probe.StopDrain();
  if (!attached.ok()) return attached;
  if (!detached.ok()) return detached;
  absl::StatusOr<kestrel_cpu_counters> after = probe.Totals();
  if (!after.ok()) return after.status();
  Window w;
  w.drops = AllDrops(*after) - AllDrops(*before);
  w.read_rate = static_cast<double>(probe.consumed() - consumed_before) / seconds;
  w.issued_rate = static_cast<double>(issued.load()) / seconds;
  return w;
}

// The highest rate with no drop, searched below `ceiling`.
absl::StatusOr<double> SearchZeroDropRate(ProbeUnderTest& probe, double ceiling) {
  double lo = 0, hi = ceiling;
  for (int step = 0; step < kSearchSteps; ++step) {
    const double rate = (lo + hi) / 2;
    absl::StatusOr<Window> w = RunWindow(probe, rate, kSearchWindowSeconds);
    if (!w.ok()) return w.status();
    if (w->drops == 0) {
      lo = w->read_rate;
    } else {
      hi = rate;
    }
  }
  return lo;
}

// Zero-drop rates with the consumer printing every record to /dev/null (as
// `kestrel capture > /dev/null`) and writing it to a capture file (as
// `kestrel capture -w`), searched alternately per repetition so the
// machine's drift touches both alike.
absl::Status AddZeroDropRows(const CaptureFileBenchOptions& options, BenchReport& report) {
  absl::StatusOr<std::unique_ptr<ProbeUnderTest>> probe = ProbeUnderTest::Load(1, kBenchRingBytes);
  if (!probe.ok()) return probe.status();
  if (absl::Status s = (*probe)->Capture({kGetppidId}); !s.ok()) return s;

  std::FILE* devnull = std::fopen("/dev/null", "w");
  if (devnull == nullptr) return absl::ErrnoToStatus(errno, "cannot open /dev/null");
  const std::string path = TempPath("writer");
  const auto cleanup = [&] {
    (*probe)->SetRecordSink(nullptr);
    std::fclose(devnull);
    unlink(path.c_str());
  };

  std::vector<double> printing, writing;
  for (int rep = 0; rep < options.repetitions; ++rep) {
    engine::ThreadTable threads;
    engine::EventPrinter printer(engine::OutputStyle::kText, 0, threads, devnull);
    (*probe)->SetRecordSink([&](const kestrel_record_header* h) { (void)printer.Print(h); });
    absl::StatusOr<Window> unpaced = RunWindow(**probe, 0, kSearchWindowSeconds);
    if (!unpaced.ok()) {
      cleanup();
      return unpaced.status();
    }
    absl::StatusOr<double> p = SearchZeroDropRate(**probe, unpaced->issued_rate);
    if (!p.ok()) {
      cleanup();
      return p.status();
    }
    printing.push_back(*p);

    absl::StatusOr<std::unique_ptr<cf::CaptureWriter>> writer =
        cf::CaptureWriter::Create(path, cf::CaptureInfoOfThisMachine());
    if (!writer.ok()) {
      cleanup();
      return writer.status();
    }
    (*probe)->SetRecordSink([&](const kestrel_record_header* h) { (void)(*writer)->Append(h); });
    absl::StatusOr<double> w = SearchZeroDropRate(**probe, unpaced->issued_rate);
    (*probe)->SetRecordSink(nullptr);
    (void)(*writer)->Close();
    if (!w.ok()) {
      cleanup();
      return w.status();
    }
    writing.push_back(*w);
  }
  cleanup();

  BenchRow print_row =
      Row("getppid, printing to /dev/null: highest zero-drop rate", Median(printing), "events/s");
  BenchRow write_row = Row("getppid, writing a capture file (-w, zstd 1): highest zero-drop rate",
                           Median(writing), "events/s");
  write_row.ratio = Median(PairedRatios(writing, printing));
  write_row.ratio_of = print_row.name;
  write_row.note = Judge(write_row, *write_row.ratio, kWriterRatioTarget, true);
  report.rows.push_back(print_row);
  report.rows.push_back(write_row);
  report.notes.push_back(absl::StrFormat(
      "zero-drop rows: per-CPU rings of %u MiB, two paced getppid threads, %d-step search of "
      "%.1f s windows, consumer on any CPU; median of %d",
      kBenchRingBytes >> 20, kSearchSteps, kSearchWindowSeconds, options.repetitions));
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<BenchReport> RunCaptureFileBench(const CaptureFileBenchOptions& options) {
  BenchReport report;
  report.mode = "capture-file";
  if (options.zero_drop) {
    if (absl::Status s = AddZeroDropRows(options, report); !s.ok()) return s;
  }
  if (absl::Status s = AddFileRows(options, report); !s.ok()) return s;
  return report;
}

}  // namespace kestrel::bench
