#include "kestrel/capture/capture_replay.h"

#include <cstring>

#include "absl/strings/str_format.h"
#include "agent/probe/read_tally.h"
#include "engine/capture_file/capture_reader.h"
#include "engine/output/event_printer.h"
#include "engine/state/thread_table.h"
#include "kestrel/capture/capture_state.h"
#include "kestrel/common/cli_app.h"
#include "shared/capture_settings.h"

namespace kestrel::cli {

engine::capture_file::CaptureInfo CaptureFileInfo(const CaptureOptions& options) {
  engine::capture_file::CaptureInfo info = engine::capture_file::CaptureInfoOfThisMachine();
  info.syscalls = ShownAndStateSyscalls(options);
  info.writer = "kestrel " KESTREL_VERSION;
  return info;
}

void PrintCaptureFileStats(const CaptureFileSink& sink, const std::string& path, std::FILE* out) {
  const double per_record = sink.records() > 0 ? static_cast<double>(sink.file_bytes()) /
                                                     static_cast<double>(sink.records())
                                               : 0;
  absl::FPrintF(out,
                "capture file %s: %u records, %u bytes written (%.1f bytes/record, %.1fx smaller "
                "than the records), %u file(s)\n",
                path, sink.records(), sink.file_bytes(), per_record,
                sink.file_bytes() > 0
                    ? static_cast<double>(sink.raw_bytes()) / static_cast<double>(sink.file_bytes())
                    : 0,
                sink.files());
}

int RunCaptureReplay(const CaptureOptions& options) {
  absl::StatusOr<std::unique_ptr<engine::capture_file::CaptureReader>> reader =
      engine::capture_file::CaptureReader::Open(*options.read_path);
  if (!reader.ok()) {
    std::fprintf(stderr, "kestrel capture: %s\n", std::string(reader.status().message()).c_str());
    return kExitFailure;
  }
  const engine::capture_file::CaptureInfo& info = (*reader)->info();
  // The file's snapshot and its records are the only truth about its
  // processes: this machine's /proc is not theirs.
  engine::ThreadTableOptions table_options;
  table_options.proc_fallback = false;
  engine::ThreadTable threads(table_options);
  engine::EventPrinter printer(
      options.json ? engine::OutputStyle::kJson : engine::OutputStyle::kText, info.boot_time_ns,
      threads, stdout,
      options.all_syscalls ? engine::ShownSyscalls::All()
                           : engine::ShownSyscalls::Only(options.syscalls));
  printer.UseSchema((*reader)->schema());
  uint64_t shown = 0, undecodable = 0;
  bool snapshot = false;
  while (const kestrel_record_header* header = (*reader)->Next(&snapshot)) {
    if (snapshot) {
      // The system at start seeds the table, as the live capture's was.
      absl::StatusOr<engine::RecordView> view =
          engine::RecordView::Parse(header, header->len, (*reader)->schema());
      if (view.ok()) threads.Apply(*view);
      continue;
    }
    if (options.count && shown >= *options.count) break;
    absl::StatusOr<engine::PrintOutcome> outcome = printer.Print(header);
    if (!outcome.ok()) {
      ++undecodable;
    } else if (*outcome == engine::PrintOutcome::kEventShown) {
      ++shown;
    }
  }
  std::fflush(stdout);
  if (undecodable > 0) {
    std::fprintf(stderr, "kestrel capture: %s: %llu records did not decode\n",
                 options.read_path->c_str(), static_cast<unsigned long long>(undecodable));
  }
  if (const std::string unknown = (*reader)->ScapSummary(); !unknown.empty()) {
    std::fprintf(stderr, "kestrel capture: %s: %s\n", options.read_path->c_str(), unknown.c_str());
  }
  if (const auto& damage = (*reader)->damage()) {
    std::fprintf(stderr,
                 "kestrel capture: %s is damaged: %s; the %llu bytes from byte %llu on were not "
                 "read\n",
                 options.read_path->c_str(), damage->what.c_str(),
                 static_cast<unsigned long long>(damage->bytes_lost),
                 static_cast<unsigned long long>(damage->offset));
    return kExitFailure;
  }
  return kExitOk;
}

}  // namespace kestrel::cli
