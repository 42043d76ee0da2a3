#include "stats_command.h"

#include <chrono>
#include <cstdio>

#include "capture_options.h"
#include "libpman.h"
#include "preflight.h"
#include "probe_loader.h"
#include "read_tally.h"
#include "stats_printer.h"

namespace kestrel::cli {
namespace {

constexpr char kStatsUsage[] =
    "usage: kestrel stats [--duration SECONDS] [--syscalls NAME,... | --all] [--pid PID]\n"
    "                     [--buffer-bytes small|default|large|N[K|M|G]]\n"
    "                     [--cpus-per-buffer auto|N] [--online-cpus-only]\n"
    "Loads the probe for --duration seconds (default 1), reads and discards\n"
    "every record, then prints the rings (count, bytes each, locked memory)\n"
    "and the counters. There is no pinned capture to report on yet: the\n"
    "numbers are those of this run.\n";

constexpr double kDefaultSeconds = 1.0;

}  // namespace

int RunStats(const std::vector<std::string>& args) {
  absl::StatusOr<CaptureOptions> options = ParseCaptureOptions(args);
  if (options.ok() && (options->json || options->count)) {
    options = absl::InvalidArgumentError("--json and --count are capture options");
  }
  if (!options.ok()) {
    std::fprintf(stderr, "kestrel stats: %s\n%s", std::string(options.status().message()).c_str(),
                 kStatsUsage);
    return 2;
  }
  if (absl::Status s = CheckCanLoadProbe(); !s.ok()) {
    std::fprintf(stderr, "kestrel stats: %s\n", std::string(s.message()).c_str());
    return 1;
  }
  HandlePtr handle = LoadProbe(*options);
  if (!handle) return 1;

  using Clock = std::chrono::steady_clock;
  const auto deadline =
      Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(
                         options->duration_s.value_or(kDefaultSeconds)));
  ReadTally tally;
  auto drain = [&] {
    for (;;) {
      void* record = nullptr;
      int16_t ring = 0;
      if (pman_consume_first_event(handle.get(), &record, &ring) != 0 || record == nullptr) return;
      tally.consumed += CountsAsWritten(*static_cast<const kestrel_record_header*>(record));
    }
  };
  while (Clock::now() < deadline) {
    drain();
    pman_wait_for_events(handle.get(), 50);
  }
  const bool settled = pman_detach_and_settle(handle.get()) == 0;
  drain();
  PrintStats(handle.get(), tally, stdout);
  return settled ? 0 : 1;
}

}  // namespace kestrel::cli
