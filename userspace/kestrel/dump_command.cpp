#include "dump_command.h"

#include <time.h>

#include <algorithm>
#include <cstdio>
#include <memory>

#include "engine/output/event_printer.h"
#include "engine/state/thread_table.h"
#include "libpman_recorder.h"
#include "recorder_options.h"
#include "stderr_log.h"

namespace kestrel::cli {
namespace {

struct RecorderCloser {
  void operator()(pman_recorder* r) const { pman_recorder_close(r); }
};

struct PrintContext {
  engine::EventPrinter* printer;
  uint64_t undecodable = 0;
};

int PrintRecord(void* ctx, const kestrel_record_header* record) {
  auto* c = static_cast<PrintContext*>(ctx);
  if (!c->printer->Print(record).ok()) ++c->undecodable;
  return 0;
}

uint64_t BootNowNs() {
  timespec ts{};
  clock_gettime(CLOCK_BOOTTIME, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1'000'000'000ULL + ts.tv_nsec;
}

}  // namespace

int RunDump(const std::vector<std::string>& args) {
  absl::StatusOr<DumpOptions> options = ParseDumpOptions(args);
  if (!options.ok()) {
    std::fprintf(stderr, "kestrel dump: %s\n%s", std::string(options.status().message()).c_str(),
                 kDumpUsage);
    return 2;
  }
  pman_recorder_options o;
  pman_recorder_default_options(&o);
  o.name = options->target.name.c_str();
  o.pin_root = options->target.pin_root.c_str();
  o.log_fn = LogToStderr;
  o.log_ctx = CommandLogContext("kestrel dump");
  pman_recorder* raw = nullptr;
  if (pman_recorder_open(&o, &raw) != 0) return 1;
  std::unique_ptr<pman_recorder, RecorderCloser> recorder(raw);

  pman_recorder_status status{};
  if (pman_recorder_get_status(raw, &status) != 0) return 1;
  const uint64_t now = BootNowNs();
  const uint64_t since =
      options->since_ns == 0 ? 0 : (now > options->since_ns ? now - options->since_ns : 0);
  // Not seeded: a recording's threads are named by its own records, and by
  // /proc only for those none of them described.
  engine::ThreadTable threads;
  engine::EventPrinter printer(
      options->json ? engine::OutputStyle::kJson : engine::OutputStyle::kText, status.boot_time_ns,
      threads, stdout);
  PrintContext ctx{&printer};
  pman_recorder_read_stats stats{};
  if (pman_recorder_read(raw, options->last, since, PrintRecord, &ctx, &stats) != 0) return 1;
  std::fflush(stdout);
  std::fprintf(stderr,
               "kestrel dump: %llu records printed, %llu undecodable; skipped: %llu overwritten "
               "while read, %llu in flight, %llu lost\n"
               "recorder %s: recording for %.1f s, %llu bytes in %u ring(s); %llu written, %llu "
               "dropped (slot busy)\n",
               static_cast<unsigned long long>(stats.records - ctx.undecodable),
               static_cast<unsigned long long>(ctx.undecodable),
               static_cast<unsigned long long>(stats.torn),
               static_cast<unsigned long long>(stats.in_flight),
               static_cast<unsigned long long>(stats.lost_slots), options->target.name.c_str(),
               static_cast<double>(now - std::min(now, status.started_boot_ns)) / 1e9,
               static_cast<unsigned long long>(status.size_bytes), status.n_rings,
               static_cast<unsigned long long>(status.counters.records_written),
               static_cast<unsigned long long>(status.counters.drops_ring_full));
  return 0;
}

}  // namespace kestrel::cli
