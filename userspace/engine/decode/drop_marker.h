// Decodes KESTREL_EVT_DROP_MARKER records: the probe's note, in the stream,
// that records of one CPU were lost just before this point.
#ifndef KESTREL_ENGINE_DECODE_DROP_MARKER_H_
#define KESTREL_ENGINE_DECODE_DROP_MARKER_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "record_view.h"

namespace kestrel::engine {

struct DropMarker {
  uint32_t cpu = 0;            // the CPU whose records were lost
  uint64_t lost = 0;           // records lost since that CPU's previous marker
  uint64_t first_loss_ns = 0;  // boot time of the first of them
  uint64_t last_loss_ns = 0;   // and of the last
  uint64_t lost_total = 0;     // everything that CPU lost since the probe loaded
};

bool IsDropMarker(const RecordView& record);

absl::StatusOr<DropMarker> DecodeDropMarker(const RecordView& record);

}  // namespace kestrel::engine

#endif  // KESTREL_ENGINE_DECODE_DROP_MARKER_H_
