// Lines for the records that describe the capture itself (settings_changed,
// drop markers), in the text and JSON styles of EventPrinter.
#ifndef KESTREL_CLI_CONTROL_EVENT_FORMAT_H_
#define KESTREL_CLI_CONTROL_EVENT_FORMAT_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "engine/record_view.h"

namespace kestrel::cli {

// Replaces `line`; fails for a record type it does not know.
absl::Status FormatControlRecord(const engine::RecordView& record, bool json, uint64_t boot_time_ns,
                                 std::string& line);

}  // namespace kestrel::cli

#endif  // KESTREL_CLI_CONTROL_EVENT_FORMAT_H_
