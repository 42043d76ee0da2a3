#include "kestrel/capture/capture_file_sink.h"

#include <cerrno>
#include <cstdio>

#include "absl/strings/str_format.h"

namespace kestrel::cli {

absl::StatusOr<std::unique_ptr<CaptureFileSink>> CaptureFileSink::Create(
    std::string path, uint64_t rotate_bytes, uint32_t keep,
    engine::capture_file::CaptureInfo info) {
  std::unique_ptr<CaptureFileSink> sink(
      new CaptureFileSink(std::move(path), rotate_bytes, keep, std::move(info)));
  if (absl::Status s = sink->Open(); !s.ok()) return s;
  return sink;
}

absl::Status CaptureFileSink::Open() {
  absl::StatusOr<std::unique_ptr<engine::capture_file::CaptureWriter>> writer =
      engine::capture_file::CaptureWriter::Create(path_, info_);
  if (!writer.ok()) return writer.status();
  writer_ = *std::move(writer);
  ++files_;
  return absl::OkStatus();
}

absl::Status CaptureFileSink::SetSettings(const kestrel_capture_settings& settings) {
  if (records_ > 0 || files_ != 1) {
    return absl::FailedPreconditionError("settings are recorded before the first record");
  }
  const auto* bytes = reinterpret_cast<const uint8_t*>(&settings);
  info_.settings.assign(bytes, bytes + sizeof(settings));
  info_.boot_time_ns = settings.boot_time_ns;
  writer_.reset();  // nothing but the header was written: start the file again
  files_ = 0;
  return Open();
}

absl::Status CaptureFileSink::AppendSnapshot(const engine::SnapshotRecords& snapshot) {
  if (records_ > 0 || files_ != 1) {
    return absl::FailedPreconditionError("the snapshot is written before the first record");
  }
  return WriteSnapshot(snapshot);
}

absl::Status CaptureFileSink::WriteSnapshot(const engine::SnapshotRecords& snapshot) {
  absl::Status status;
  snapshot.ForEach([&](const kestrel_record_header* record) {
    if (status.ok()) status = writer_->AppendSnapshot(record);
  });
  return status;
}

absl::Status CaptureFileSink::Append(const kestrel_record_header* record) {
  if (absl::Status s = writer_->Append(record); !s.ok()) return s;
  ++records_;
  raw_bytes_ += record->len;
  if (rotate_bytes_ > 0 && writer_->file_bytes() >= rotate_bytes_) return Rotate();
  return absl::OkStatus();
}

absl::Status CaptureFileSink::Rotate() {
  absl::Status closed = writer_->Close();
  file_bytes_ += writer_->file_bytes();
  writer_.reset();
  if (!closed.ok()) return closed;
  const auto numbered = [&](uint32_t n) {
    return n == 0 ? path_ : absl::StrFormat("%s.%u", path_, n);
  };
  if (keep_ == 0) {
    std::remove(path_.c_str());
  } else {
    // The oldest kept file is overwritten by the one before it.
    for (uint32_t n = keep_; n >= 1; --n) {
      if (std::rename(numbered(n - 1).c_str(), numbered(n).c_str()) != 0 && errno != ENOENT) {
        return absl::ErrnoToStatus(errno, absl::StrFormat("cannot rename %s", numbered(n - 1)));
      }
    }
  }
  if (absl::Status s = Open(); !s.ok()) return s;
  if (!snapshot_at_rotation_) return absl::OkStatus();
  return WriteSnapshot(snapshot_at_rotation_());
}

absl::Status CaptureFileSink::Close() {
  if (!writer_) return absl::OkStatus();
  absl::Status s = writer_->Close();  // writes the last block
  file_bytes_ += writer_->file_bytes();
  writer_.reset();
  return s;
}

}  // namespace kestrel::cli
