#include "agent/pipeline/replay.h"

#include <chrono>
#include <cstdio>
#include <vector>

#include "absl/strings/str_cat.h"
#include "agent/pipeline/pipeline.h"
#include "agent/pipeline/stats_line.h"
#include "engine/capture_file/capture_reader.h"
#include "engine/state/thread_table.h"

namespace kestrel::agent {

ReplayResult ReplayCapture(const std::string& path, const engine::fields::FieldRegistry& fields,
                           std::shared_ptr<const RunRules> rules, bool first_only,
                           size_t thread_table_size, outputs::AlertOutputs& outputs) {
  ReplayResult result;
  absl::StatusOr<std::unique_ptr<engine::capture_file::CaptureReader>> opened =
      engine::capture_file::CaptureReader::Open(path);
  if (!opened.ok()) {
    outputs.Close(std::chrono::seconds(1));
    // A file that is there but is no capture file is damaged input, not a
    // bad command line: the same failure as damage further in.
    result.status = absl::IsNotFound(opened.status())
                        ? opened.status()
                        : absl::DataLossError(opened.status().message());
    return result;
  }
  engine::capture_file::CaptureReader& reader = **opened;
  // The file's snapshot and records are the only truth about its
  // processes: this machine's /proc is not theirs.
  engine::ThreadTableOptions table_options;
  table_options.proc_fallback = false;
  table_options.max_entries = thread_table_size;
  table_options.boot_time_ns = reader.info().boot_time_ns;
  engine::ThreadTable threads(table_options);
  // The capture stamped its file with its probe's boot time, the one a live
  // run on that host adds too (libpman reads it from the kernel), so
  // evt.time and the alerts' time are the live run's.
  RunPipeline pipeline(fields, threads, outputs, reader.info().boot_time_ns, first_only);
  pipeline.ReadAs(reader.schema(), reader.info().hostname);
  pipeline.SetRules(std::move(rules));
  // Names are resolved now, as a live run resolves them; before the first
  // record, so the records do not outrun the first answers.
  engine::dns::AddressNames address_names;
  pipeline.SetAddressNames(&address_names);
  address_names.WaitResolved();

  const auto start = std::chrono::steady_clock::now();
  bool snapshot = false;
  while (const kestrel_record_header* header = reader.Next(&snapshot)) {
    if (snapshot) {
      // The system at start seeds the table record by record, through the
      // path a live run's /proc seed takes (ThreadTable::ApplySnapshot);
      // the seed is no event, so evt.num counts from the first event.
      if (absl::StatusOr<engine::RecordView> view =
              engine::RecordView::Parse(header, header->len, reader.schema());
          view.ok()) {
        threads.Apply(*view);
      }
      continue;
    }
    pipeline.Take(header);
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  outputs.Close(std::chrono::seconds(5));
  result.counters = pipeline.counters();
  result.lines.push_back(
      FormatRunStats(pipeline.counters(), nullptr,
                     seconds > 0 ? static_cast<double>(pipeline.counters().events) / seconds : -1,
                     outputs.Stats(), outputs.rate_limited(), threads));
  // A .scap file's events no Kestrel event stands for were counted, not
  // judged.
  if (std::string unknown = reader.ScapSummary(); !unknown.empty()) {
    result.lines.push_back(std::move(unknown));
  }
  if (const auto& damage = reader.damage()) {
    result.status = absl::DataLossError(absl::StrCat(
        path, " is damaged: ", damage->what, "; the ", damage->bytes_lost, " bytes from byte ",
        damage->offset, " on were not read (the alerts above are those of the records before)"));
  }
  return result;
}

}  // namespace kestrel::agent
