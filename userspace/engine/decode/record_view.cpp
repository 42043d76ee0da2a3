#include "record_view.h"

#include "absl/status/status.h"
#include "absl/strings/str_format.h"

namespace kestrel::engine {

absl::Status ParamSizeError(uint32_t index, size_t want, size_t got) {
  return absl::InvalidArgumentError(
      absl::StrFormat("parameter %u has %u bytes, expected %u", index, got, want));
}

absl::StatusOr<RecordView> RecordView::Parse(const void* data, size_t available,
                                             const SchemaTable& schema) {
  if (data == nullptr || available < sizeof(kestrel_record_header)) {
    return absl::InvalidArgumentError(
        absl::StrFormat("record of %u bytes is shorter than its %u-byte header", available,
                        sizeof(kestrel_record_header)));
  }
  RecordView view;
  std::memcpy(&view.header_, data, sizeof(view.header_));
  const kestrel_record_header& h = view.header_;
  if (h.version != schema.version()) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "record schema version %u, the schema read with is %u", h.version, schema.version()));
  }
  if (h.len < sizeof(kestrel_record_header) || h.len > available ||
      h.len > KESTREL_MAX_RECORD_BYTES) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "record length %u is outside [%u, %u]", h.len, sizeof(kestrel_record_header),
        std::min(available, static_cast<size_t>(KESTREL_MAX_RECORD_BYTES))));
  }
  if (h.nparams > kMaxParams) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "record has %u parameters, no event has more than %u", h.nparams, kMaxParams));
  }
  const auto* bytes = static_cast<const uint8_t*>(data);
  const size_t lengths_end = sizeof(kestrel_record_header) + 2 * size_t{h.nparams};
  if (lengths_end > h.len) {
    return absl::InvalidArgumentError(
        absl::StrFormat("record of %u bytes cannot hold %u parameter lengths", h.len, h.nparams));
  }
  size_t offset = lengths_end;
  for (uint32_t i = 0; i < h.nparams; ++i) {
    uint16_t len;
    std::memcpy(&len, bytes + sizeof(kestrel_record_header) + 2 * size_t{i}, sizeof(len));
    if (offset + len > h.len) {
      return absl::InvalidArgumentError(
          absl::StrFormat("parameter %u (%u bytes at offset %u) runs past the record's %u bytes", i,
                          len, offset, h.len));
    }
    view.offsets_[i] = static_cast<uint32_t>(offset);
    view.lengths_[i] = len;
    offset += len;
  }
  view.base_ = bytes;
  return view;
}

}  // namespace kestrel::engine
