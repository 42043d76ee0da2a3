#include "record_view.h"

#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"

namespace kestrel::engine {

absl::Status ParamSizeError(uint32_t index, size_t want, size_t got) {
  return absl::InvalidArgumentError(
      absl::StrFormat("parameter %u has %u bytes, expected %u", index, got, want));
}

namespace {

uint16_t ParamLength(const uint8_t* record, uint32_t i) {
  uint16_t len;
  std::memcpy(&len, record + sizeof(kestrel_record_header) + 2 * size_t{i}, sizeof(len));
  return len;
}

// The error for a record whose parameter lengths add up past its end,
// naming the first parameter that runs past it.
absl::Status OverrunError(const uint8_t* record, const kestrel_record_header& h,
                          size_t lengths_end) {
  const size_t data_bytes = h.len - lengths_end;
  size_t offset = 0;
  for (uint32_t i = 0; i < h.nparams; ++i) {
    const uint16_t len = ParamLength(record, i);
    if (offset + len > data_bytes) {
      return absl::InvalidArgumentError(
          absl::StrFormat("parameter %u (%u bytes at offset %u) runs past the record's %u bytes", i,
                          len, lengths_end + offset, h.len));
    }
    offset += len;
  }
  return absl::InvalidArgumentError("parameter lengths run past the record");
}

}  // namespace

absl::StatusOr<RecordView> RecordView::Parse(const void* data, size_t available,
                                             const SchemaTable& schema) {
  // Filled where it is returned: a copy of a view whose bounds were just
  // written one by one stalls on store forwarding (it showed in profiles).
  absl::StatusOr<RecordView> out(absl::in_place);
  if (absl::Status s = out->Fill(data, available, schema); !s.ok()) out = std::move(s);
  return out;
}

absl::Status RecordView::Fill(const void* data, size_t available, const SchemaTable& schema) {
  if (data == nullptr || available < sizeof(kestrel_record_header)) {
    return absl::InvalidArgumentError(
        absl::StrFormat("record of %u bytes is shorter than its %u-byte header", available,
                        sizeof(kestrel_record_header)));
  }
  std::memcpy(&header_, data, sizeof(header_));
  const kestrel_record_header& h = header_;
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
  static_assert(
      static_cast<size_t>(KESTREL_MAX_RECORD_BYTES) - sizeof(kestrel_record_header) <= UINT16_MAX,
      "parameter offsets from the first parameter must fit in 16 bits");
  const size_t data_bytes = h.len - lengths_end;
  // Lengths only add up: checking the total once is checking every bound
  // (the starts of a record that fails are not used).
  size_t offset = 0;
  starts_[0] = 0;
  for (uint32_t i = 0; i < h.nparams; ++i) {
    offset += ParamLength(bytes, i);
    starts_[i + 1] = static_cast<uint16_t>(offset);
  }
  if (offset > data_bytes) return OverrunError(bytes, h, lengths_end);
  data_ = bytes + lengths_end;
  return absl::OkStatus();
}

}  // namespace kestrel::engine
