#include "capture_command.h"

#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <vector>

#include "absl/strings/str_format.h"
#include "capture_options.h"
#include "capture_state.h"
#include "cli_app.h"
#include "engine/decode/schema_listing.h"
#include "engine/output/event_printer.h"
#include "engine/state/thread_table.h"
#include "libpman.h"
#include "preflight.h"
#include "probe_loader.h"
#include "shared/event_types.h"
#include "stats_printer.h"
#include "target_process.h"

namespace kestrel::cli {
namespace {

volatile std::sig_atomic_t g_stop = 0;

void OnStopSignal(int) { g_stop = 1; }

// No SA_RESTART: a signal must cut pman_wait_for_events short.
void InstallStopHandlers() {
  struct sigaction sa {};
  sa.sa_handler = OnStopSignal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

}  // namespace

int RunCapture(const std::vector<std::string>& args) {
  std::unique_ptr<CLI::App> app =
      MakeVerbApp("capture",
                  "Prints one line per syscall event until Ctrl-C, --count or --duration,\n"
                  "then the probe's counters on stderr. --pin exposes the capture to\n"
                  "`kestrel settings` and `kestrel syscalls`.",
                  "kestrel capture --syscalls openat,execve --pid 1234 --count 10");
  CaptureOptions parsed;
  DefineCaptureOptions(*app, parsed);
  if (std::optional<int> done = ParseVerb(*app, args)) return *done;
  const CaptureOptions* options = &parsed;
  if (options->list_events) {
    std::fputs(engine::FormatEventList().c_str(), stdout);
    return 0;
  }
  if (absl::Status s = CheckCanLoadProbe(); !s.ok()) {
    std::fprintf(stderr, "kestrel capture: %s\n", std::string(s.message()).c_str());
    return 1;
  }
  NoteMissingTargetProcess("kestrel capture", options->pid);
  InstallStopHandlers();
  HandlePtr handle = LoadProbe(WithStateSyscalls(*options));
  if (!handle) return 1;

  kestrel_capture_settings settings{};
  pman_get_capture_settings(handle.get(), &settings);
  // Seeded after the probe is attached: a thread is either in the seed or
  // created under the probe's eyes.
  engine::ThreadTable threads;
  threads.SeedFromProc();
  engine::EventPrinter printer(
      options->json ? engine::OutputStyle::kJson : engine::OutputStyle::kText,
      settings.boot_time_ns, threads, stdout, ShownSyscallsOf(*options));

  using Clock = std::chrono::steady_clock;
  const auto deadline =
      options->duration_s ? Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                               std::chrono::duration<double>(*options->duration_s))
                          : Clock::time_point::max();
  uint64_t printed = 0;
  uint64_t undecodable = 0;
  uint64_t state_only = 0;
  while (!g_stop && Clock::now() < deadline && (!options->count || printed < *options->count)) {
    void* record = nullptr;
    int16_t ring = 0;
    if (pman_consume_first_event(handle.get(), &record, &ring) != 0) break;
    if (record == nullptr) {
      std::fflush(stdout);
      pman_wait_for_events(handle.get(), 50);
      continue;
    }
    const auto* header = static_cast<const kestrel_record_header*>(record);
    if (absl::StatusOr<engine::PrintOutcome> outcome = printer.Print(header); outcome.ok()) {
      // Markers are printed but are not events: --count counts events.
      // Records kept only for the thread table are consumed but not printed.
      printed +=
          *outcome != engine::PrintOutcome::kStateOnly && header->type != KESTREL_EVT_DROP_MARKER;
      state_only += *outcome == engine::PrintOutcome::kStateOnly;
    } else {
      ++undecodable;
    }
  }
  std::fflush(stdout);
  pman_detach(handle.get());
  PrintStats(handle.get(), printed + state_only, undecodable, stderr);
  PrintThreadTableStats(threads, state_only, stderr);
  return 0;
}

}  // namespace kestrel::cli
