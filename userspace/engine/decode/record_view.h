// A validated, read-only view of one probe record (shared/record_format.h).
// Parse() checks every length against the bytes available, so accessors never
// read outside the record, whatever the record claims.
#ifndef KESTREL_ENGINE_DECODE_RECORD_VIEW_H_
#define KESTREL_ENGINE_DECODE_RECORD_VIEW_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

#include "absl/status/statusor.h"
#include "schema_table.h"
#include "shared/event_schema.h"
#include "shared/record_format.h"

namespace kestrel::engine {

class RecordView {
 public:
  // `available` is how many bytes may be read at `data`. The record must be
  // of `schema`'s version: this build's for live records, a capture file's
  // own (CaptureReader::schema()) for its records, whatever version it is.
  static absl::StatusOr<RecordView> Parse(const void* data, size_t available,
                                          const SchemaTable& schema);
  static absl::StatusOr<RecordView> Parse(const void* data, size_t available) {
    return Parse(data, available, SchemaTable::Compiled());
  }

  const kestrel_record_header& header() const { return header_; }
  uint32_t nparams() const { return header_.nparams; }

  // Bytes of parameter `i`; empty when i >= nparams().
  std::span<const uint8_t> param(uint32_t i) const {
    if (i >= header_.nparams) return {};
    return {base_ + offsets_[i], lengths_[i]};
  }

  // Parameter `i` as an integer of type T; fails unless it has sizeof(T) bytes.
  template <typename T>
  absl::StatusOr<T> Integer(uint32_t i) const;

 private:
  // No event has more (the schema's bound, checked by its tests); keeping
  // the view small keeps it cheap to build and copy, once per event.
  static constexpr uint32_t kMaxParams = KESTREL_MAX_EVENT_PARAMS;

  kestrel_record_header header_{};
  const uint8_t* base_ = nullptr;
  uint32_t offsets_[kMaxParams];  // only the first nparams are set
  uint16_t lengths_[kMaxParams];
};

absl::Status ParamSizeError(uint32_t index, size_t want, size_t got);

template <typename T>
absl::StatusOr<T> RecordView::Integer(uint32_t i) const {
  std::span<const uint8_t> bytes = param(i);
  if (bytes.size() != sizeof(T)) return ParamSizeError(i, sizeof(T), bytes.size());
  T value;
  std::memcpy(&value, bytes.data(), sizeof(T));
  return value;
}

}  // namespace kestrel::engine

#endif  // KESTREL_ENGINE_DECODE_RECORD_VIEW_H_
