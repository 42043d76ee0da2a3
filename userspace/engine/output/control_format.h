// Lines for the records that describe the capture itself rather than a
// traced process: settings_changed, drop_start/drop_stop and drop markers.
#ifndef KESTREL_ENGINE_OUTPUT_CONTROL_FORMAT_H_
#define KESTREL_ENGINE_OUTPUT_CONTROL_FORMAT_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "engine/decode/record_view.h"
#include "output_style.h"

namespace kestrel::engine {

// True for the record types FormatControlRecord formats.
bool IsControlRecord(const RecordView& record);

// Replaces `line`; fails for a record it cannot decode or does not know.
absl::Status FormatControlRecord(const RecordView& record, OutputStyle style, uint64_t boot_time_ns,
                                 std::string& line);

}  // namespace kestrel::engine

#endif  // KESTREL_ENGINE_OUTPUT_CONTROL_FORMAT_H_
