#include "capture_writer.h"

#include <fcntl.h>
#include <unistd.h>
#include <zstd.h>

#include <cerrno>
#include <cstring>

#include "absl/strings/str_format.h"
#include "crc32c.h"

namespace kestrel::engine::capture_file {

absl::StatusOr<std::unique_ptr<CaptureWriter>> CaptureWriter::Create(const std::string& path,
                                                                     const CaptureInfo& info,
                                                                     WriterOptions options) {
  const int flags = options.create_new ? O_EXCL | O_NOFOLLOW : O_TRUNC;
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC | flags, 0600);
  if (fd < 0) return absl::ErrnoToStatus(errno, absl::StrFormat("cannot create %s", path));
  std::unique_ptr<CaptureWriter> writer(new CaptureWriter(fd, path, options));
  FileHeader header{};
  std::memcpy(header.magic, kFileMagic, sizeof(header.magic));
  header.format_version = kFormatVersion;
  header.header_bytes = sizeof(FileHeader);
  if (absl::Status s = writer->WriteAll(&header, sizeof(header)); !s.ok()) return s;
  const std::vector<uint8_t> payload = EncodeCaptureInfo(info);
  if (absl::Status s =
          writer->WriteBlock(BlockKind::kInfo, payload.data(), payload.size(), 0, 0, 0);
      !s.ok()) {
    return s;
  }
  return writer;
}

CaptureWriter::CaptureWriter(int fd, std::string path, WriterOptions options)
    : fd_(fd), path_(std::move(path)), options_(options) {
  if (options_.zstd_level > 0) zstd_ = ZSTD_createCCtx();
  block_.reserve(options_.block_bytes + static_cast<size_t>(KESTREL_MAX_RECORD_BYTES) +
                 kRecordAlign);
}

CaptureWriter::~CaptureWriter() {
  if (fd_ >= 0) close(fd_);
  ZSTD_freeCCtx(zstd_);
}

absl::Status CaptureWriter::AppendSnapshot(const kestrel_record_header* record) {
  if (kind_ == BlockKind::kEvents) {
    return absl::FailedPreconditionError("snapshot records must come before event records");
  }
  return AppendTo(BlockKind::kSnapshot, record);
}

absl::Status CaptureWriter::Append(const kestrel_record_header* record) {
  return AppendTo(BlockKind::kEvents, record);
}

absl::Status CaptureWriter::AppendTo(BlockKind kind, const kestrel_record_header* record) {
  if (record->len < sizeof(kestrel_record_header) || record->len > KESTREL_MAX_RECORD_BYTES) {
    return absl::InvalidArgumentError(absl::StrFormat("record of %u bytes", record->len));
  }
  if (kind != kind_) {
    if (absl::Status s = Flush(); !s.ok()) return s;
    kind_ = kind;
  }
  if (block_records_ == 0) first_ts_ = record->ts_ns;
  last_ts_ = record->ts_ns;
  const auto* bytes = reinterpret_cast<const uint8_t*>(record);
  block_.insert(block_.end(), bytes, bytes + record->len);
  block_.resize(RecordStride(kFormatVersion, static_cast<uint32_t>(block_.size())));
  ++block_records_;
  ++records_;
  raw_bytes_ += record->len;
  if (block_.size() >= options_.block_bytes) return Flush();
  return absl::OkStatus();
}

absl::Status CaptureWriter::Flush() {
  if (block_records_ == 0) return absl::OkStatus();
  absl::Status s =
      WriteBlock(kind_, block_.data(), block_.size(), block_records_, first_ts_, last_ts_);
  block_.clear();
  block_records_ = 0;
  return s;
}

absl::Status CaptureWriter::WriteBlock(BlockKind kind, const void* payload, size_t raw_bytes,
                                       uint32_t records, uint64_t first_ts, uint64_t last_ts) {
  BlockHeader h{};
  h.magic = kBlockMagic;
  h.kind = static_cast<uint16_t>(kind);
  h.codec = static_cast<uint16_t>(Codec::kNone);
  h.raw_bytes = static_cast<uint32_t>(raw_bytes);
  h.records = records;
  h.first_ts_ns = first_ts;
  h.last_ts_ns = last_ts;
  const void* stored = payload;
  size_t stored_bytes = raw_bytes;
  if (zstd_ != nullptr && kind != BlockKind::kInfo) {
    compressed_.resize(ZSTD_compressBound(raw_bytes));
    const size_t n = ZSTD_compressCCtx(zstd_, compressed_.data(), compressed_.size(), payload,
                                       raw_bytes, options_.zstd_level);
    if (ZSTD_isError(n)) {
      return absl::InternalError(absl::StrFormat("zstd: %s", ZSTD_getErrorName(n)));
    }
    if (n < raw_bytes) {  // incompressible blocks are stored as they are
      stored = compressed_.data();
      stored_bytes = n;
      h.codec = static_cast<uint16_t>(Codec::kZstd);
    }
  }
  h.stored_bytes = static_cast<uint32_t>(stored_bytes);
  h.checksum = Crc32c(Crc32c(0, &h, sizeof(h)), stored, stored_bytes);
  if (absl::Status s = WriteAll(&h, sizeof(h)); !s.ok()) return s;
  return WriteAll(stored, stored_bytes);
}

absl::Status CaptureWriter::WriteAll(const void* data, size_t n) {
  const auto* p = static_cast<const uint8_t*>(data);
  while (n > 0) {
    const ssize_t w = write(fd_, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      return absl::ErrnoToStatus(errno, absl::StrFormat("cannot write %s", path_));
    }
    p += w;
    n -= static_cast<size_t>(w);
    file_bytes_ += static_cast<uint64_t>(w);
  }
  return absl::OkStatus();
}

absl::Status CaptureWriter::Close() {
  absl::Status s = Flush();
  if (fd_ >= 0 && close(fd_) != 0 && s.ok()) {
    s = absl::ErrnoToStatus(errno, absl::StrFormat("cannot close %s", path_));
  }
  fd_ = -1;
  return s;
}

}  // namespace kestrel::engine::capture_file
