// Reads a capture file (file_format.h) record by record. A damaged or cut
// file is read up to the damage: Next() then ends, and damage() says at
// which byte and what was lost, so everything before it is still used.
// libscap's .scap files (Falco's, sysdig's captures) are read too, told
// apart by their first bytes: their events come out as Kestrel records
// (scap_reader.h).
#ifndef KESTREL_ENGINE_CAPTURE_FILE_CAPTURE_READER_H_
#define KESTREL_ENGINE_CAPTURE_FILE_CAPTURE_READER_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "capture_info.h"
#include "engine/decode/schema_table.h"
#include "file_format.h"
#include "shared/record_format.h"

struct ZSTD_DCtx_s;

namespace kestrel::engine::capture_file {

class ScapReader;

// Where a file stops being readable.
struct Damage {
  uint64_t offset = 0;      // byte offset of the first block not read
  uint64_t bytes_lost = 0;  // bytes from there to the end of the file
  std::string what;         // e.g. "checksum mismatch in the block at byte 4096"
};

class CaptureReader {
 public:
  // Fails when `path` cannot be read, is not a capture file, comes from a
  // newer format version than this build reads, or from a newer schema
  // version without the schema embedded (files before it was).
  static absl::StatusOr<std::unique_ptr<CaptureReader>> Open(const std::string& path);
  ~CaptureReader();

  const CaptureInfo& info() const;
  // The schema to parse and decode this file's records with: the one
  // embedded in the file, whatever its version; for an older file written
  // before schemas were embedded, its version's as this build keeps it
  // (past_schemas.h); this build's when the file is of its version.
  const SchemaTable& schema() const {
    return file_schema_ ? *file_schema_ : SchemaTable::Compiled();
  }

  // The next record, valid until the next call; nullptr at the end of the
  // file or at damage. `snapshot` (optional) tells whether it belongs to
  // the snapshot of the system at start.
  const kestrel_record_header* Next(bool* snapshot = nullptr);

  const std::optional<Damage>& damage() const;
  uint64_t records() const;  // returned so far
  uint64_t file_bytes() const { return size_; }

  // Whether the file is libscap's .scap rather than Kestrel's own.
  bool is_scap() const { return scap_ != nullptr; }
  // For a .scap file, what was read so far: events that became records,
  // and those no Kestrel event stands for, by libscap name. Empty for a
  // Kestrel capture.
  uint64_t scap_known_events() const;
  const std::map<std::string, uint64_t>& scap_unknown_events() const;
  // One line for people on the .scap events not known to Kestrel ("N
  // events of M types not known to Kestrel: switch 120, futex 8 ..."), or
  // empty when there were none or the file is Kestrel's.
  std::string ScapSummary() const;

 private:
  CaptureReader() = default;
  // Loads the next block of records; false at the end or at damage.
  bool LoadBlock();
  bool Fail(uint64_t offset, std::string what);

  std::string path_;
  const uint8_t* map_ = nullptr;
  size_t size_ = 0;
  size_t next_block_ = 0;  // file offset of the next block header
  CaptureInfo info_;
  std::unique_ptr<SchemaTable> file_schema_;
  ZSTD_DCtx_s* zstd_ = nullptr;
  std::vector<uint8_t> decoded_;
  const uint8_t* block_ = nullptr;  // the current block's records
  size_t block_size_ = 0, block_at_ = 0;
  uint32_t block_records_left_ = 0;
  uint32_t format_ = kFormatVersion;  // the file's: how records are laid out
  size_t block_offset_ = 0;           // file offset of the current block
  bool block_is_snapshot_ = false;
  std::optional<Damage> damage_;
  uint64_t records_ = 0;
  // The current record, when it is not aligned in place: format 1 put
  // records back to back, and a stored (uncompressed) block sits at any
  // offset of the mapped file.
  std::vector<uint64_t> aligned_;
  std::unique_ptr<ScapReader> scap_;  // set for a .scap file, which it reads
};

}  // namespace kestrel::engine::capture_file

#endif  // KESTREL_ENGINE_CAPTURE_FILE_CAPTURE_READER_H_
