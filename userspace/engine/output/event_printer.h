// Turns records into one line of text or JSON each, naming each event's
// thread from a ThreadTable that the same records keep current. The one
// event line formatter of every command that prints records (capture, dump).
#ifndef KESTREL_ENGINE_OUTPUT_EVENT_PRINTER_H_
#define KESTREL_ENGINE_OUTPUT_EVENT_PRINTER_H_

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/decode/record_view.h"
#include "engine/decode/schema_table.h"
#include "engine/state/thread_table.h"
#include "output_style.h"
#include "shared/record_format.h"

namespace kestrel::engine {

// The syscalls whose records a printer shows; records of the others still
// feed the thread table. PROCESS_EXIT is shown with exit or exit_group.
class ShownSyscalls {
 public:
  static ShownSyscalls All() { return AllExcept({}); }
  static ShownSyscalls Only(const std::vector<uint32_t>& ids) { return ShownSyscalls(ids, true); }
  static ShownSyscalls AllExcept(const std::vector<uint32_t>& ids) {
    return ShownSyscalls(ids, false);
  }

  bool Shows(uint32_t syscall_id) const {
    const bool listed = syscall_id < listed_.size() && listed_[syscall_id];
    return listed == listed_are_shown_;
  }

 private:
  ShownSyscalls(const std::vector<uint32_t>& ids, bool listed_are_shown);

  std::vector<bool> listed_;
  bool listed_are_shown_;
};

enum class PrintOutcome {
  kEventShown,    // a traced process's event was printed
  kControlShown,  // a record about the capture (settings, drop marker) was printed
  kStateOnly,     // consumed to keep the thread table current, not printed
};

class EventPrinter {
 public:
  // `threads` must outlive the printer; the printer applies every record
  // to it.
  EventPrinter(OutputStyle style, uint64_t boot_time_ns, ThreadTable& threads, std::FILE* out,
               ShownSyscalls shown = ShownSyscalls::All());

  // Decodes records through `schema` (a capture file's own) instead of this
  // build's; `schema` must outlive the printer.
  void UseSchema(const SchemaTable& schema) { schema_ = &schema; }

  // Prints `record` unless it is only there for the thread table. A record
  // that does not decode is an error and prints nothing.
  absl::StatusOr<PrintOutcome> Print(const kestrel_record_header* record);

  // As Print, into `line` (no newline; empty for kStateOnly).
  absl::StatusOr<PrintOutcome> Format(const kestrel_record_header* record, std::string& line);

 private:
  absl::StatusOr<PrintOutcome> FormatGeneric(const RecordView& view, std::string& line);
  absl::StatusOr<PrintOutcome> FormatSpecific(const RecordView& view, std::string& line);
  bool ShowsEventType(uint16_t type, std::string_view syscall);
  // The thread's name now, "?" when nothing is known of it.
  std::string CommOf(const kestrel_record_header& h);
  void AppendPrefix(const kestrel_record_header& h, std::string_view comm, std::string& line);

  OutputStyle style_;
  uint64_t boot_time_ns_;
  ThreadTable& threads_;
  std::FILE* out_;
  ShownSyscalls shown_;
  std::vector<int8_t> shown_by_type_;  // per event type: -1 not yet known
  std::string line_;                   // reused: no allocation per event once warm
  const SchemaTable* schema_ = &SchemaTable::Compiled();
};

}  // namespace kestrel::engine

#endif  // KESTREL_ENGINE_OUTPUT_EVENT_PRINTER_H_
