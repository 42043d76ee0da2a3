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

  // A view of no parameters (what Parse fills in).
  RecordView() { starts_[0] = 0; }

  // Copies only the blocks of parameter bounds the record uses: a view is
  // made and copied (into a StatusOr, into a DecodedEvent) once or twice per
  // event, and copying the whole array each time showed in profiles, as did
  // a copy of the exact length (GCC makes either a `rep movs`). Fixed-size
  // blocks copy in a few vector moves.
  RecordView(const RecordView& other) { *this = other; }
  RecordView& operator=(const RecordView& other) {
    if (this == &other) return *this;
    header_ = other.header_;
    data_ = other.data_;
    for (size_t i = 0; i <= header_.nparams; i += kBoundsBlock) {
      std::memcpy(&starts_[i], &other.starts_[i], sizeof(uint16_t) * kBoundsBlock);
    }
    return *this;
  }

  const kestrel_record_header& header() const { return header_; }
  uint32_t nparams() const { return header_.nparams; }

  // Bytes of parameter `i`; empty when i >= nparams().
  std::span<const uint8_t> param(uint32_t i) const {
    if (i >= header_.nparams) return {};
    return {data_ + starts_[i], static_cast<size_t>(starts_[i + 1] - starts_[i])};
  }

  // Parameter `i` as an integer of type T; fails unless it has sizeof(T) bytes.
  template <typename T>
  absl::StatusOr<T> Integer(uint32_t i) const;

 private:
  // Parse's work, into this view.
  absl::Status Fill(const void* data, size_t available, const SchemaTable& schema);

  // No event has more (the schema's bound, checked by its tests); keeping
  // the view small keeps it cheap to build and copy, once per event.
  static constexpr uint32_t kMaxParams = KESTREL_MAX_EVENT_PARAMS;

  kestrel_record_header header_{};
  // The first parameter's bytes (right after the length array).
  const uint8_t* data_ = nullptr;
  // Parameter i is [starts_[i], starts_[i + 1]) from data_; only the first
  // nparams + 1 are set (copies move whole blocks of kBoundsBlock). 16 bits
  // are enough: a record is at most KESTREL_MAX_RECORD_BYTES (64 KiB)
  // including its 32-byte header.
  static constexpr size_t kBoundsBlock = 16;
  uint16_t starts_[(kMaxParams + 1 + kBoundsBlock - 1) / kBoundsBlock * kBoundsBlock];
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
