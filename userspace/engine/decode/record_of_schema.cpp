#include "record_of_schema.h"

#include <algorithm>
#include <cstring>

namespace kestrel::engine {

absl::StatusOr<RecordView> ParseRecordOfAnySchema(const void* data, size_t available,
                                                  std::vector<uint8_t>& scratch) {
  kestrel_record_header h{};
  if (data == nullptr || available < sizeof(h)) return RecordView::Parse(data, available);
  std::memcpy(&h, data, sizeof(h));
  if (h.version == KESTREL_SCHEMA_VERSION) return RecordView::Parse(data, available);
  const size_t n = std::min<size_t>({h.len, available, KESTREL_MAX_RECORD_BYTES});
  const auto* bytes = static_cast<const uint8_t*>(data);
  scratch.assign(bytes, bytes + n);
  scratch[offsetof(kestrel_record_header, version)] = KESTREL_SCHEMA_VERSION;
  return RecordView::Parse(scratch.data(), scratch.size());
}

}  // namespace kestrel::engine
