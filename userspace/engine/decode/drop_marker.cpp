#include "drop_marker.h"

#include "absl/status/status.h"
#include "absl/strings/str_format.h"
#include "shared/event_types.h"

namespace kestrel::engine {

bool IsDropMarker(const RecordView& record) {
  return record.header().type == KESTREL_EVT_DROP_MARKER;
}

absl::StatusOr<DropMarker> DecodeDropMarker(const RecordView& record) {
  const kestrel_record_header& h = record.header();
  if (h.type != KESTREL_EVT_DROP_MARKER || h.nparams != KESTREL_DROP_MARKER_NPARAMS) {
    return absl::InvalidArgumentError(
        absl::StrFormat("not a drop marker record: type %u with %u parameters", h.type, h.nparams));
  }
  uint64_t values[KESTREL_DROP_MARKER_NPARAMS];
  for (uint32_t i = 0; i < KESTREL_DROP_MARKER_NPARAMS; ++i) {
    absl::StatusOr<uint64_t> v = record.Integer<uint64_t>(i);
    if (!v.ok()) return v.status();
    values[i] = *v;
  }
  if (values[0] == 0) return absl::InvalidArgumentError("drop marker reports no lost record");
  return DropMarker{.cpu = h.cpu,
                    .lost = values[0],
                    .first_loss_ns = values[1],
                    .last_loss_ns = values[2],
                    .lost_total = values[3]};
}

}  // namespace kestrel::engine
