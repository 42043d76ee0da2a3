// Decodes the records that describe the capture rather than a syscall:
// settings_changed and the dropping-mode markers.
#ifndef KESTREL_ENGINE_DECODE_CONTROL_RECORDS_H_
#define KESTREL_ENGINE_DECODE_CONTROL_RECORDS_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "record_view.h"

namespace kestrel::engine {

struct SettingsChanged {
  uint16_t what = 0;  // KESTREL_CHANGED_* bits
  uint64_t old_generation = 0;
  uint64_t new_generation = 0;
};

absl::StatusOr<SettingsChanged> DecodeSettingsChanged(const RecordView& record);

// "settings,syscalls" for the KESTREL_CHANGED_* bits in `what`; "none" for 0.
std::string ChangedNames(uint16_t what);

struct SamplingMarker {
  bool start = false;  // DROP_START; else DROP_STOP
  uint32_t sampling_ratio = 0;
  uint64_t generation = 0;
};

absl::StatusOr<SamplingMarker> DecodeSamplingMarker(const RecordView& record);

}  // namespace kestrel::engine

#endif  // KESTREL_ENGINE_DECODE_CONTROL_RECORDS_H_
