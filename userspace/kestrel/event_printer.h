// Turns records into one line of text or JSON each.
#ifndef KESTREL_CLI_EVENT_PRINTER_H_
#define KESTREL_CLI_EVENT_PRINTER_H_

#include <cstdint>
#include <cstdio>
#include <string>

#include "absl/status/status.h"
#include "engine/process_names.h"
#include "engine/record_view.h"
#include "shared/record_format.h"

namespace kestrel::cli {

class EventPrinter {
 public:
  EventPrinter(bool json, uint64_t boot_time_ns, std::FILE* out)
      : json_(json), boot_time_ns_(boot_time_ns), out_(out) {}

  // Prints `record`; a record that does not decode is reported and skipped.
  absl::Status Print(const kestrel_record_header* record);

  // Formats `record` into a line (without the newline); exposed for tests.
  absl::Status Format(const kestrel_record_header* record, std::string& line);

 private:
  void AppendPrefix(const kestrel_record_header& h, std::string& line);
  absl::Status FormatGeneric(const engine::RecordView& view, std::string& line);
  absl::Status FormatSpecific(const engine::RecordView& view, std::string& line);

  bool json_;
  uint64_t boot_time_ns_;
  std::FILE* out_;
  engine::ProcessNames names_;
  std::string line_;  // reused: no allocation per event once warm
};

}  // namespace kestrel::cli

#endif  // KESTREL_CLI_EVENT_PRINTER_H_
