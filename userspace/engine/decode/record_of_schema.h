// Records of a capture file written under another schema version. Their
// header carries that version, which RecordView::Parse refuses: this
// build's schema cannot read them. Read through the schema the file
// embeds (CaptureReader::schema()), they are parsed as records of this
// version, from a copy whose version byte says so.
#ifndef KESTREL_ENGINE_DECODE_RECORD_OF_SCHEMA_H_
#define KESTREL_ENGINE_DECODE_RECORD_OF_SCHEMA_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "record_view.h"

namespace kestrel::engine {

// As RecordView::Parse, whatever the record's schema version; the view
// may point into `scratch`, valid until its next use.
absl::StatusOr<RecordView> ParseRecordOfAnySchema(const void* data, size_t available,
                                                  std::vector<uint8_t>& scratch);

}  // namespace kestrel::engine

#endif  // KESTREL_ENGINE_DECODE_RECORD_OF_SCHEMA_H_
