// Where `kestrel capture -w` puts records: a capture file, rotated by size
// when asked (FILE, then FILE.1, FILE.2 ... oldest last).
#ifndef KESTREL_CLI_CAPTURE_FILE_SINK_H_
#define KESTREL_CLI_CAPTURE_FILE_SINK_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "engine/capture_file/capture_writer.h"
#include "engine/state/snapshot_records.h"
#include "shared/capture_settings.h"

namespace kestrel::cli {

class CaptureFileSink {
 public:
  // Creates `path` now, so a path that cannot be written fails before the
  // probe loads. `rotate_bytes` 0 never rotates.
  static absl::StatusOr<std::unique_ptr<CaptureFileSink>> Create(
      std::string path, uint64_t rotate_bytes, uint32_t keep,
      engine::capture_file::CaptureInfo info);

  // Records the settings the loaded probe uses (and their boot time) in the
  // file's info block; only before the first record.
  absl::Status SetSettings(const kestrel_capture_settings& settings);

  // The snapshot of the system at start (snapshot_records.h), after the
  // settings and before the first record.
  absl::Status AppendSnapshot(const engine::SnapshotRecords& snapshot);
  // What each later file of a rotation starts with: the state when it is
  // opened, so every file reads alone.
  void SnapshotAtRotation(std::function<engine::SnapshotRecords()> make) {
    snapshot_at_rotation_ = std::move(make);
  }
  absl::Status Append(const kestrel_record_header* record);
  absl::Status Close();

  uint64_t records() const { return records_; }
  uint64_t raw_bytes() const { return raw_bytes_; }
  uint64_t file_bytes() const { return file_bytes_ + (writer_ ? writer_->file_bytes() : 0); }
  uint32_t files() const { return files_; }

 private:
  CaptureFileSink(std::string path, uint64_t rotate_bytes, uint32_t keep,
                  engine::capture_file::CaptureInfo info)
      : path_(std::move(path)), rotate_bytes_(rotate_bytes), keep_(keep), info_(std::move(info)) {}
  absl::Status Open();
  absl::Status Rotate();
  absl::Status WriteSnapshot(const engine::SnapshotRecords& snapshot);

  std::string path_;
  uint64_t rotate_bytes_;
  uint32_t keep_;
  engine::capture_file::CaptureInfo info_;
  std::unique_ptr<engine::capture_file::CaptureWriter> writer_;
  std::function<engine::SnapshotRecords()> snapshot_at_rotation_;
  uint64_t records_ = 0, raw_bytes_ = 0;
  uint64_t file_bytes_ = 0;  // of the files already closed
  uint32_t files_ = 0;
};

}  // namespace kestrel::cli

#endif  // KESTREL_CLI_CAPTURE_FILE_SINK_H_
