#include "capture_command.h"

#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

#include "absl/strings/str_format.h"
#include "capture_options.h"
#include "engine/schema_listing.h"
#include "event_printer.h"
#include "libpman.h"
#include "preflight.h"
#include "stats_printer.h"

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

void LogToStderr(void*, pman_log_level level, const char* message) {
  if (level >= PMAN_LOG_WARNING) std::fprintf(stderr, "kestrel: %s\n", message);
}

struct HandleCloser {
  void operator()(pman_handle* h) const { pman_close(h); }
};
using HandlePtr = std::unique_ptr<pman_handle, HandleCloser>;

// Loads the probe configured for `options`; prints why on failure.
HandlePtr LoadProbe(const CaptureOptions& options) {
  pman_options pman_opts;
  pman_default_options(&pman_opts);
  pman_opts.buffer_bytes = options.buffer_bytes;
  pman_opts.cpus_per_buffer = options.cpus_per_buffer;
  pman_opts.log_fn = LogToStderr;

  pman_handle* raw = nullptr;
  if (pman_init(&pman_opts, &raw) != 0) return nullptr;
  HandlePtr handle(raw);
  if (pman_open(raw) != 0 || pman_load(raw) != 0) return nullptr;

  kestrel_capture_settings settings{};
  if (pman_get_capture_settings(raw, &settings) != 0) return nullptr;
  settings.target_tgid = options.pid;
  if (pman_update_capture_settings(raw, &settings) != 0) return nullptr;

  std::vector<uint8_t> table(pman_syscall_table_size(), options.all_syscalls ? 1 : 0);
  for (uint32_t id : options.syscalls) table[id] = 1;
  if (pman_enforce_sc_set(raw, table.data(), table.size()) != 0) return nullptr;
  if (pman_attach(raw) != 0) return nullptr;
  return handle;
}

}  // namespace

int RunCapture(const std::vector<std::string>& args) {
  absl::StatusOr<CaptureOptions> options = ParseCaptureOptions(args);
  if (!options.ok()) {
    std::fprintf(stderr, "kestrel capture: %s\n%s", std::string(options.status().message()).c_str(),
                 kCaptureUsage);
    return 2;
  }
  if (options->list_events) {
    std::fputs(engine::FormatEventList().c_str(), stdout);
    return 0;
  }
  if (absl::Status s = CheckCanLoadProbe(); !s.ok()) {
    std::fprintf(stderr, "kestrel capture: %s\n", std::string(s.message()).c_str());
    return 1;
  }
  InstallStopHandlers();
  HandlePtr handle = LoadProbe(*options);
  if (!handle) return 1;

  kestrel_capture_settings settings{};
  pman_get_capture_settings(handle.get(), &settings);
  EventPrinter printer(options->json, settings.boot_time_ns, stdout);

  using Clock = std::chrono::steady_clock;
  const auto deadline =
      options->duration_s ? Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                               std::chrono::duration<double>(*options->duration_s))
                          : Clock::time_point::max();
  uint64_t printed = 0;
  uint64_t undecodable = 0;
  while (!g_stop && Clock::now() < deadline && (!options->count || printed < *options->count)) {
    void* record = nullptr;
    int16_t ring = 0;
    if (pman_consume_first_event(handle.get(), &record, &ring) != 0) break;
    if (record == nullptr) {
      std::fflush(stdout);
      pman_wait_for_events(handle.get(), 50);
      continue;
    }
    if (printer.Print(static_cast<const kestrel_record_header*>(record)).ok()) {
      ++printed;
    } else {
      ++undecodable;
    }
  }
  std::fflush(stdout);
  pman_detach(handle.get());
  PrintStats(handle.get(), printed, undecodable, stderr);
  return 0;
}

}  // namespace kestrel::cli
