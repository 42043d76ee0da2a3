#include "capture_snapshot.h"

#include <memory>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"
#include "capture_reader.h"

namespace kestrel::engine::capture_file {

absl::StatusOr<uint64_t> ForEachSnapshotRecord(
    const std::string& path, const std::function<void(const kestrel_record_header*)>& visit) {
  // A reader of its own: the caller's event iteration stays where it is.
  absl::StatusOr<std::unique_ptr<CaptureReader>> reader = CaptureReader::Open(path);
  if (!reader.ok()) return reader.status();
  uint64_t visited = 0;
  bool snapshot = false;
  // Snapshot blocks all come before the first event block.
  while (const kestrel_record_header* record = (*reader)->Next(&snapshot)) {
    if (!snapshot) return visited;
    visit(record);
    ++visited;
  }
  if (const std::optional<Damage>& damage = (*reader)->damage()) {
    return absl::DataLossError(absl::StrFormat("%s: %s", path, damage->what));
  }
  return visited;
}

}  // namespace kestrel::engine::capture_file
