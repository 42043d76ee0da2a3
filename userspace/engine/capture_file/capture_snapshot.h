// The snapshot of the system at start a capture file holds (its snapshot
// blocks, right after the info block), apart from its events: what a
// reader seeds its thread table with before the first event
// (engine/state/snapshot_records.h describes the records).
#ifndef KESTREL_ENGINE_CAPTURE_FILE_CAPTURE_SNAPSHOT_H_
#define KESTREL_ENGINE_CAPTURE_FILE_CAPTURE_SNAPSHOT_H_

#include <cstdint>
#include <functional>
#include <string>

#include "absl/status/statusor.h"
#include "shared/record_format.h"

namespace kestrel::engine::capture_file {

// Calls `visit` on every snapshot record of the file at `path`, in order
// (each valid only during the call), and returns how many there were. A
// file without a snapshot has none. Fails as CaptureReader::Open does, or
// with DataLossError when the file is damaged before its first event (the
// snapshot records before the damage were visited).
absl::StatusOr<uint64_t> ForEachSnapshotRecord(
    const std::string& path, const std::function<void(const kestrel_record_header*)>& visit);

}  // namespace kestrel::engine::capture_file

#endif  // KESTREL_ENGINE_CAPTURE_FILE_CAPTURE_SNAPSHOT_H_
