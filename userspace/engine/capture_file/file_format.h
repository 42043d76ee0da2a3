// Kestrel's capture file, byte for byte (docs/capture-format.md tells it in
// prose). Little-endian, as the records themselves are.
//
//   file   := file_header block*
//   block  := block_header payload
//
// The first block is the info block (kind kInfo): what the capture was made
// with. Snapshot blocks (the system at start) come next, then event blocks:
// records exactly as they left the ring, each starting with its
// kestrel_record_header and, since format 2, padded with zeros to a
// multiple of kRecordAlign bytes (format 1 put them back to back), so a
// reader walks the payload by `len` rounded up. Every block
// carries its own length, record count, time range and a CRC32C over its
// header and payload, so a reader that meets a damaged or cut block knows
// where, and keeps everything before it.
#ifndef KESTREL_ENGINE_CAPTURE_FILE_FILE_FORMAT_H_
#define KESTREL_ENGINE_CAPTURE_FILE_FILE_FORMAT_H_

#include <cstdint>

namespace kestrel::engine::capture_file {

inline constexpr char kFileMagic[8] = {'K', 'E', 'S', 'T', 'R', 'E', 'L', 'C'};
// Bumped for any change a reader of the previous version cannot read.
// 2: records padded to kRecordAlign inside their block.
inline constexpr uint32_t kFormatVersion = 2;

// Records in a decoded block start at multiples of this (format 2 on): a
// reader hands them out in place, as the structs they begin with, where
// format 1's records had to be copied to an aligned buffer first.
inline constexpr uint32_t kRecordAlign = 8;

// Where the record after one of `len` bytes starts, in a file of `format`.
inline constexpr uint64_t RecordStride(uint32_t format, uint32_t len) {
  return format >= 2 ? (uint64_t{len} + kRecordAlign - 1) / kRecordAlign * kRecordAlign : len;
}

struct FileHeader {
  char magic[8];
  uint32_t format_version;
  uint32_t header_bytes;  // sizeof(FileHeader) as written: room to grow
};
static_assert(sizeof(FileHeader) == 16);

inline constexpr uint32_t kBlockMagic = 0x4b4c424b;  // "KBLK"

enum class BlockKind : uint16_t {
  kInfo = 1,      // payload: tagged info fields (info_fields.h)
  kSnapshot = 2,  // payload: records describing the system at start
  kEvents = 3,    // payload: records as they came off the ring
};

enum class Codec : uint16_t {
  kNone = 0,
  kZstd = 1,  // one zstd frame holding the whole payload
};

struct BlockHeader {
  uint32_t magic;         // kBlockMagic
  uint16_t kind;          // BlockKind
  uint16_t codec;         // Codec
  uint32_t stored_bytes;  // payload bytes in the file
  uint32_t raw_bytes;     // payload bytes once decoded
  uint32_t records;       // records in the payload (0 for kInfo)
  // CRC32C of this header (with `checksum` zero) followed by the stored
  // payload.
  uint32_t checksum;
  uint64_t first_ts_ns;  // first and last record's timestamp
  uint64_t last_ts_ns;
};
static_assert(sizeof(BlockHeader) == 40);

// A block's decoded payload never exceeds this: a reader refuses larger
// claims before allocating.
inline constexpr uint32_t kMaxBlockRawBytes = 64u << 20;

}  // namespace kestrel::engine::capture_file

#endif  // KESTREL_ENGINE_CAPTURE_FILE_FILE_FORMAT_H_
