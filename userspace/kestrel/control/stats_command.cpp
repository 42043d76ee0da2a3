#include "kestrel/control/stats_command.h"

#include <chrono>
#include <cstdio>

#include <memory>
#include <optional>

#include "agent/probe/preflight.h"
#include "agent/probe/read_tally.h"
#include "agent/probe/stats_printer.h"
#include "kestrel/capture/capture_probe.h"
#include "kestrel/common/cli_app.h"
#include "kestrel/common/target_process.h"
#include "kestrel/control/stats_options.h"
#include "libpman.h"
#include "shared/event_types.h"

namespace kestrel::cli {

int RunStats(const std::vector<std::string>& args) {
  std::unique_ptr<CLI::App> app =
      MakeVerbApp("stats",
                  "Loads the probe for --duration seconds (default 1), reads and discards\n"
                  "every record, then prints the rings (count, bytes each, locked memory)\n"
                  "and the counters of this run.",
                  "kestrel stats --duration 5 --buffer-bytes small");
  CaptureOptions parsed;
  DefineStatsOptions(*app, parsed);
  if (std::optional<int> done = ParseVerb(*app, args)) return *done;
  const CaptureOptions* options = &parsed;
  if (absl::Status s = agent::CheckCanLoadProbe(); !s.ok()) {
    std::fprintf(stderr, "kestrel stats: %s\n", std::string(s.message()).c_str());
    return 1;
  }
  NoteMissingTargetProcess("kestrel stats", options->pid);
  HandlePtr handle = LoadProbe(*options, nullptr);
  if (!handle) return 1;

  using Clock = std::chrono::steady_clock;
  const auto deadline =
      Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(
                         options->duration_s.value_or(kStatsDefaultSeconds)));
  agent::ReadTally tally;
  auto drain = [&] {
    for (;;) {
      void* record = nullptr;
      int16_t ring = 0;
      if (pman_consume_first_event(handle.get(), &record, &ring) != 0 || record == nullptr) return;
      tally.consumed += agent::CountsAsWritten(*static_cast<const kestrel_record_header*>(record));
    }
  };
  while (Clock::now() < deadline) {
    drain();
    pman_wait_for_events(handle.get(), 50);
  }
  const bool settled = pman_detach_and_settle(handle.get()) == 0;
  drain();
  agent::PrintStats(handle.get(), tally, stdout);
  return settled ? 0 : 1;
}

}  // namespace kestrel::cli
