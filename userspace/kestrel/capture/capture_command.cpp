#include "kestrel/capture/capture_command.h"

#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <vector>

#include "absl/strings/str_format.h"
#include "agent/probe/preflight.h"
#include "agent/probe/read_tally.h"
#include "agent/probe/stats_printer.h"
#include "engine/decode/record_view.h"
#include "engine/decode/schema_listing.h"
#include "engine/output/event_printer.h"
#include "engine/state/thread_table.h"
#include "kestrel/capture/capture_file_sink.h"
#include "kestrel/capture/capture_options.h"
#include "kestrel/capture/capture_probe.h"
#include "kestrel/capture/capture_replay.h"
#include "kestrel/capture/capture_state.h"
#include "kestrel/common/cli_app.h"
#include "kestrel/common/target_process.h"
#include "libpman.h"
#include "shared/event_types.h"

namespace kestrel::cli {
namespace {

volatile std::sig_atomic_t g_stop = 0;

// The first signal stops the capture and lets it drain and print its
// stats; a second one, during a long drain, ends it at once.
void OnStopSignal(int sig) {
  if (g_stop) {
    std::signal(sig, SIG_DFL);
    std::raise(sig);
  }
  g_stop = 1;
}

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
  if (options->read_path) return RunCaptureReplay(*options);
  if (absl::Status s = agent::CheckCanLoadProbe(); !s.ok()) {
    std::fprintf(stderr, "kestrel capture: %s\n", std::string(s.message()).c_str());
    return 1;
  }
  NoteMissingTargetProcess("kestrel capture", options->pid);
  InstallStopHandlers();
  // The file exists before the probe loads: a path that cannot be written
  // fails with nothing attached.
  std::unique_ptr<CaptureFileSink> sink;
  if (options->write_path) {
    absl::StatusOr<std::unique_ptr<CaptureFileSink>> created =
        CaptureFileSink::Create(*options->write_path, options->rotate_bytes, options->rotate_keep,
                                CaptureFileInfo(*options));
    if (!created.ok()) {
      std::fprintf(stderr, "kestrel capture: %s\n",
                   std::string(created.status().message()).c_str());
      return 1;
    }
    sink = *std::move(created);
  }
  HandlePtr handle = LoadProbe(WithStateSyscalls(*options), "capture");
  if (!handle) {
    if (sink) std::remove(options->write_path->c_str());
    return 1;
  }

  kestrel_capture_settings settings{};
  pman_get_capture_settings(handle.get(), &settings);
  if (sink) {
    // The settings in force once loaded (boot time, defaults applied) are
    // the ones the file's readers need: the header is rewritten with them
    // before the first record.
    if (absl::Status s = sink->SetSettings(settings); !s.ok()) {
      std::fprintf(stderr, "kestrel capture: %s\n", std::string(s.message()).c_str());
      return 1;
    }
  }
  // Taken after the probe is attached: a thread is either in the snapshot
  // or created under the probe's eyes. The file holds the very records the
  // live table is seeded with, so its readers rebuild the same table.
  const engine::SnapshotRecords snapshot = engine::MakeProcSnapshot("/proc");
  if (sink) {
    if (absl::Status s = sink->AppendSnapshot(snapshot); !s.ok()) {
      std::fprintf(stderr, "kestrel capture: %s\n", std::string(s.message()).c_str());
      return 1;
    }
  }
  engine::ThreadTable threads;
  threads.ApplySnapshot(snapshot);
  // Each file of a rotation starts with the state at its start, so it
  // reads alone: the thread table then follows every record written, which
  // a single file does not need (its snapshot is the one above).
  const bool rotating = sink && options->rotate_bytes > 0;
  uint64_t written_ts = 0;  // the last record written: a rotated file's snapshot time
  if (rotating) sink->SnapshotAtRotation([&] { return threads.Snapshot(written_ts); });
  engine::EventPrinter printer(
      options->json ? engine::OutputStyle::kJson : engine::OutputStyle::kText,
      settings.boot_time_ns, threads, stdout, ShownSyscallsOf(*options));

  using Clock = std::chrono::steady_clock;
  const auto deadline =
      options->duration_s ? Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                               std::chrono::duration<double>(*options->duration_s))
                          : Clock::time_point::max();
  agent::ReadTally tally;
  uint64_t state_only = 0;  // of consumed: kept for the thread table, not shown
  auto count_reached = [&] { return options->count && tally.syscall_events >= *options->count; };
  // Shows one record (or keeps it only for the thread table), or only counts
  // it once --count is reached.
  bool write_failed = false;
  // With -w every record goes to the file, drop markers and the state's
  // records included; --count then counts the syscall events written that
  // the live print would have shown, not the state syscalls added for the
  // thread table.
  ShownEventCounter counted(ShownSyscallsOf(*options));
  auto write = [&](const kestrel_record_header* header) {
    if (count_reached()) {
      tally.left_unread += agent::CountsAsWritten(*header);
      return;
    }
    if (rotating) {
      if (absl::StatusOr<engine::RecordView> view = engine::RecordView::Parse(header, header->len);
          view.ok()) {
        threads.Apply(*view);
      }
      written_ts = header->ts_ns;
    }
    if (absl::Status s = sink->Append(header); !s.ok()) {
      if (!write_failed) {
        std::fprintf(stderr, "kestrel capture: %s\n", std::string(s.message()).c_str());
      }
      write_failed = true;
      g_stop = 1;
      return;
    }
    if (!agent::CountsAsWritten(*header)) return;
    ++tally.consumed;
    tally.syscall_events += counted.Counts(*header);
  };
  auto take = [&](const kestrel_record_header* header) {
    if (sink) return write(header);
    if (!agent::CountsAsWritten(*header)) {
      if (!count_reached()) printer.Print(header).IgnoreError();
      return;
    }
    if (count_reached()) {
      ++tally.left_unread;
      return;
    }
    ++tally.consumed;
    absl::StatusOr<engine::PrintOutcome> outcome = printer.Print(header);
    if (!outcome.ok()) {
      ++tally.undecodable;
    } else if (*outcome == engine::PrintOutcome::kStateOnly) {
      ++state_only;
    } else {
      tally.syscall_events += agent::IsSyscallEvent(*header);
    }
  };
  auto next = [&]() -> const kestrel_record_header* {
    void* record = nullptr;
    int16_t ring = 0;
    if (pman_consume_first_event(handle.get(), &record, &ring) != 0) return nullptr;
    return static_cast<const kestrel_record_header*>(record);
  };
  while (!g_stop && Clock::now() < deadline && !count_reached()) {
    if (const kestrel_record_header* header = next()) {
      take(header);
      continue;
    }
    std::fflush(stdout);
    // With every syscall turned off (kestrel syscalls), the hook goes until
    // one is turned on again.
    pman_follow_syscall_set(handle.get());
    pman_wait_for_events(handle.get(), 50);
  }
  // Whatever the probe wrote before it stopped is still shown (or counted
  // as left unread past --count), so the stats add up.
  const bool settled = pman_detach_and_settle(handle.get()) == 0;
  while (const kestrel_record_header* header = next()) take(header);
  std::fflush(stdout);
  agent::PrintStats(handle.get(), tally, stderr);
  if (sink) {
    if (absl::Status s = sink->Close(); !s.ok() && !write_failed) {
      std::fprintf(stderr, "kestrel capture: %s\n", std::string(s.message()).c_str());
      write_failed = true;
    }
    PrintCaptureFileStats(*sink, *options->write_path, stderr);
    return settled && !write_failed ? 0 : 1;
  }
  PrintThreadTableStats(threads, state_only, stderr);
  return settled ? 0 : 1;
}

}  // namespace kestrel::cli
