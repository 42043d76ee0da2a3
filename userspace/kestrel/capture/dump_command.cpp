#include "kestrel/capture/dump_command.h"

#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <deque>
#include <memory>
#include <vector>

#include "engine/capture_file/capture_writer.h"
#include "engine/output/event_printer.h"
#include "engine/state/thread_table.h"
#include "kestrel/common/cli_app.h"
#include "kestrel/common/stderr_log.h"
#include "kestrel/recorder/recorder_options.h"
#include "libpman_recorder.h"

namespace kestrel::cli {
namespace {

constexpr char kDumpCommand[] = "kestrel dump";

struct RecorderCloser {
  void operator()(pman_recorder* r) const { pman_recorder_close(r); }
};

// Records of this process (its exec, its loader's mmaps, opening the pins,
// the reads), as a live capture leaves itself out through own_tgid. A
// record of an earlier process that had our pid is older than our start,
// and stays.
//
// Filtered here rather than kept out of the recorder: changing the
// recorder's own_tgid goes through a settings change, whose
// settings_changed records (one to set, one to clear) would themselves
// overwrite the two oldest records on every dump.
struct OwnRecords {
  uint32_t tgid;
  uint64_t started_ns;  // CLOCK_BOOTTIME, rounded down to a clock tick

  bool Match(const kestrel_record_header* record) const {
    return record->tgid == tgid && record->ts_ns >= started_ns;
  }
};

// /proc/self/stat field 22: start time since boot (boot clock) in ticks.
uint64_t OwnStartBootNs() {
  std::FILE* f = std::fopen("/proc/self/stat", "r");
  if (f == nullptr) return 0;
  char buf[1024] = {};
  const size_t n = std::fread(buf, 1, sizeof(buf) - 1, f);
  std::fclose(f);
  // comm (field 2) may hold spaces and parentheses: count from the last ')'.
  const char* p = std::strrchr(buf, ')');
  if (n == 0 || p == nullptr) return 0;
  unsigned long long ticks = 0;
  if (std::sscanf(
          p + 1,
          " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d %*d %*d %llu",
          &ticks) != 1) {
    return 0;
  }
  const long hz = sysconf(_SC_CLK_TCK);
  return hz > 0 ? ticks * (1'000'000'000ULL / static_cast<uint64_t>(hz)) : 0;
}

struct PrintContext {
  PrintContext(engine::EventPrinter* p, OwnRecords o, uint64_t n) : printer(p), own(o), last(n) {}

  engine::EventPrinter* printer;
  // With -w, records go here, as they are, instead of to the printer.
  engine::capture_file::CaptureWriter* writer = nullptr;
  absl::Status write_status;
  OwnRecords own;
  uint64_t last;  // 0 = print as they come; else keep the newest `last`
  std::deque<std::vector<uint8_t>> kept;
  uint64_t printed = 0;
  uint64_t undecodable = 0;
};

void Print(PrintContext& c, const kestrel_record_header* record) {
  ++c.printed;
  if (c.writer != nullptr) {
    if (c.write_status.ok()) c.write_status = c.writer->Append(record);
    return;
  }
  if (!c.printer->Print(record).ok()) ++c.undecodable;
}

// What the file says of its records: this machine, the recorder's boot
// time (its records' clock), and which recorder they came from.
engine::capture_file::CaptureInfo DumpFileInfo(const pman_recorder_status& status,
                                               const std::string& name) {
  engine::capture_file::CaptureInfo info = engine::capture_file::CaptureInfoOfThisMachine();
  info.boot_time_ns = status.boot_time_ns;
  info.writer = "kestrel " KESTREL_VERSION " dump of recorder " + name;
  return info;
}

int TakeRecord(void* ctx, const kestrel_record_header* record) {
  auto* c = static_cast<PrintContext*>(ctx);
  if (c->own.Match(record)) return 0;
  if (c->last == 0) {
    Print(*c, record);
    return 0;
  }
  const auto* bytes = reinterpret_cast<const uint8_t*>(record);
  c->kept.emplace_back(bytes, bytes + record->len);
  if (c->kept.size() > c->last) c->kept.pop_front();
  return 0;
}

uint64_t BootNowNs() {
  timespec ts{};
  clock_gettime(CLOCK_BOOTTIME, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1'000'000'000ULL + ts.tv_nsec;
}

}  // namespace

int RunDump(const std::vector<std::string>& args) {
  DumpOptions options;
  auto app = MakeVerbApp("dump", kDumpDescription, kDumpExample);
  DefineDumpOptions(*app, options);
  if (std::optional<int> done = ParseVerb(*app, args)) return *done;

  pman_recorder_options o;
  pman_recorder_default_options(&o);
  o.name = options.target.name.c_str();
  o.pin_root = options.target.pin_root.c_str();
  o.log_fn = LogToStderr;
  o.log_ctx = CommandLogContext(kDumpCommand);
  pman_recorder* raw = nullptr;
  if (pman_recorder_open(&o, &raw) != 0) return kExitFailure;
  std::unique_ptr<pman_recorder, RecorderCloser> recorder(raw);

  pman_recorder_status status{};
  if (pman_recorder_get_status(raw, &status) != 0) return kExitFailure;
  const uint64_t now = BootNowNs();
  const uint64_t since =
      options.since_ns == 0 ? 0 : (now > options.since_ns ? now - options.since_ns : 0);
  // Not seeded: a recording's threads are named by its own records, and by
  // /proc only for those none of them described.
  engine::ThreadTable threads;
  engine::EventPrinter printer(
      options.json ? engine::OutputStyle::kJson : engine::OutputStyle::kText, status.boot_time_ns,
      threads, stdout);
  PrintContext ctx(&printer, OwnRecords{static_cast<uint32_t>(getpid()), OwnStartBootNs()},
                   options.last);
  std::unique_ptr<engine::capture_file::CaptureWriter> writer;
  if (options.write_path) {
    absl::StatusOr<std::unique_ptr<engine::capture_file::CaptureWriter>> created =
        engine::capture_file::CaptureWriter::Create(*options.write_path,
                                                    DumpFileInfo(status, options.target.name));
    if (!created.ok()) {
      std::fprintf(stderr, "%s: %s\n", kDumpCommand,
                   std::string(created.status().message()).c_str());
      return kExitFailure;
    }
    writer = *std::move(created);
    ctx.writer = writer.get();
  }
  pman_recorder_read_stats stats{};
  // All of them, not just `last`: ours are dropped first, then the newest
  // `last` of the rest are kept.
  if (pman_recorder_read(raw, 0, since, TakeRecord, &ctx, &stats) != 0) return kExitFailure;
  for (const std::vector<uint8_t>& record : ctx.kept) {
    Print(ctx, reinterpret_cast<const kestrel_record_header*>(record.data()));
  }
  std::fflush(stdout);
  if (writer != nullptr) {
    absl::Status closed = writer->Close();
    if (!ctx.write_status.ok() || !closed.ok()) {
      std::fprintf(
          stderr, "%s: %s\n", kDumpCommand,
          std::string((ctx.write_status.ok() ? closed : ctx.write_status).message()).c_str());
      return kExitFailure;
    }
    std::fprintf(stderr, "%s: %llu records written to %s (%llu bytes)\n", kDumpCommand,
                 static_cast<unsigned long long>(writer->records()), options.write_path->c_str(),
                 static_cast<unsigned long long>(writer->file_bytes()));
  }
  std::fprintf(
      stderr,
      "kestrel dump: %llu records %s, %llu undecodable; skipped: %llu overwritten "
      "while read, %llu in flight, %llu lost\n"
      "recorder %s: recording for %.1f s, %llu bytes in %u ring(s); %llu written, %llu "
      "dropped (slot busy)\n",
      static_cast<unsigned long long>(ctx.printed - ctx.undecodable),
      writer != nullptr ? "saved" : "printed", static_cast<unsigned long long>(ctx.undecodable),
      static_cast<unsigned long long>(stats.torn), static_cast<unsigned long long>(stats.in_flight),
      static_cast<unsigned long long>(stats.lost_slots), options.target.name.c_str(),
      static_cast<double>(now - std::min(now, status.started_boot_ns)) / 1e9,
      static_cast<unsigned long long>(status.size_bytes), status.n_rings,
      static_cast<unsigned long long>(status.counters.records_written),
      static_cast<unsigned long long>(status.counters.drops_ring_full));
  return kExitOk;
}

}  // namespace kestrel::cli
