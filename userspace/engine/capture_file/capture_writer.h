// Writes a capture file (file_format.h): the info block, then records
// batched into zstd-compressed blocks.
#ifndef KESTREL_ENGINE_CAPTURE_FILE_CAPTURE_WRITER_H_
#define KESTREL_ENGINE_CAPTURE_FILE_CAPTURE_WRITER_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "capture_info.h"
#include "file_format.h"
#include "shared/record_format.h"

struct ZSTD_CCtx_s;

namespace kestrel::engine::capture_file {

struct WriterOptions {
  // zstd level; 0 stores blocks uncompressed. Chosen by `kestrel bench`
  // (docs/bench.md): the level that keeps the writer's zero-drop rate.
  int zstd_level = 1;
  // Raw bytes gathered before a block is compressed and written.
  size_t block_bytes = 1u << 20;
  // Fail when `path` exists (a symlink included) instead of replacing it:
  // for names anyone could have made first, as in /tmp.
  bool create_new = false;
};

class CaptureWriter {
 public:
  // Creates `path` (mode 0600: records hold other processes' data),
  // replacing a file there unless options.create_new, and writes the
  // header and `info`.
  static absl::StatusOr<std::unique_ptr<CaptureWriter>> Create(const std::string& path,
                                                               const CaptureInfo& info,
                                                               WriterOptions options = {});
  ~CaptureWriter();  // closes without reporting errors: call Close() first

  // Appends one record (header.len bytes at `record`). Snapshot records go
  // before any event record.
  absl::Status AppendSnapshot(const kestrel_record_header* record);
  absl::Status Append(const kestrel_record_header* record);

  // Writes the block being gathered.
  absl::Status Flush();
  // Flushes and closes; the file is complete once this returns ok.
  absl::Status Close();

  uint64_t records() const { return records_; }
  uint64_t file_bytes() const { return file_bytes_; }  // written so far
  uint64_t raw_bytes() const { return raw_bytes_; }    // record bytes appended

 private:
  CaptureWriter(int fd, std::string path, WriterOptions options);
  absl::Status AppendTo(BlockKind kind, const kestrel_record_header* record);
  absl::Status WriteBlock(BlockKind kind, const void* payload, size_t raw_bytes, uint32_t records,
                          uint64_t first_ts, uint64_t last_ts);
  absl::Status WriteAll(const void* data, size_t n);

  int fd_;
  std::string path_;
  WriterOptions options_;
  ZSTD_CCtx_s* zstd_ = nullptr;
  BlockKind kind_ = BlockKind::kSnapshot;
  std::vector<uint8_t> block_;       // records gathered for the next block
  std::vector<uint8_t> compressed_;  // scratch for the compressed payload
  uint32_t block_records_ = 0;
  uint64_t first_ts_ = 0, last_ts_ = 0;
  uint64_t records_ = 0, file_bytes_ = 0, raw_bytes_ = 0;
};

}  // namespace kestrel::engine::capture_file

#endif  // KESTREL_ENGINE_CAPTURE_FILE_CAPTURE_WRITER_H_
