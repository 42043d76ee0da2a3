#include "capture_reader.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "crc32c.h"
#include "past_schemas.h"
#include "scap_reader.h"
#include "schema_codec.h"

namespace kestrel::engine::capture_file {
namespace {

// Reads and checks the block header at `offset`; fills `why` when it is not
// a whole, intact block.
bool ReadBlock(const uint8_t* map, size_t size, size_t offset, BlockHeader& h, std::string& why) {
  if (size - offset < sizeof(BlockHeader)) {
    why = absl::StrFormat("the block header at byte %u is cut short (%u of %u bytes)", offset,
                          size - offset, sizeof(BlockHeader));
    return false;
  }
  std::memcpy(&h, map + offset, sizeof(h));
  if (h.magic != kBlockMagic) {
    why = absl::StrFormat("no block header at byte %u", offset);
    return false;
  }
  const size_t have = size - offset - sizeof(BlockHeader);
  if (h.stored_bytes > have) {
    why = absl::StrFormat("the block at byte %u is cut short (%u of %u payload bytes)", offset,
                          have, h.stored_bytes);
    return false;
  }
  BlockHeader zeroed = h;
  zeroed.checksum = 0;
  const uint32_t crc = Crc32c(Crc32c(0, &zeroed, sizeof(zeroed)),
                              map + offset + sizeof(BlockHeader), h.stored_bytes);
  if (crc != h.checksum) {
    why = absl::StrFormat("checksum mismatch in the block at byte %u", offset);
    return false;
  }
  if (h.raw_bytes > kMaxBlockRawBytes) {
    why = absl::StrFormat("the block at byte %u claims %u bytes, more than %u", offset, h.raw_bytes,
                          kMaxBlockRawBytes);
    return false;
  }
  return true;
}

}  // namespace

absl::StatusOr<std::unique_ptr<CaptureReader>> CaptureReader::Open(const std::string& path) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return absl::ErrnoToStatus(errno, absl::StrFormat("cannot open %s", path));
  struct stat st {};
  if (fstat(fd, &st) != 0) {
    const int e = errno;
    close(fd);
    return absl::ErrnoToStatus(e, absl::StrFormat("cannot stat %s", path));
  }
  std::unique_ptr<CaptureReader> reader(new CaptureReader());
  reader->path_ = path;
  reader->size_ = static_cast<size_t>(st.st_size);
  uint8_t head[4] = {};
  if (reader->size_ >= sizeof(head) && pread(fd, head, sizeof(head), 0) == sizeof(head) &&
      LooksLikeScap(head)) {
    void* map = mmap(nullptr, reader->size_, PROT_READ, MAP_PRIVATE, fd, 0);
    const int e = errno;
    close(fd);
    if (map == MAP_FAILED) return absl::ErrnoToStatus(e, absl::StrFormat("cannot map %s", path));
    reader->map_ = static_cast<const uint8_t*>(map);
    madvise(map, reader->size_, MADV_SEQUENTIAL);
    absl::StatusOr<std::unique_ptr<ScapReader>> scap =
        ScapReader::Open(path, {reader->map_, reader->size_});
    if (!scap.ok()) return scap.status();
    reader->scap_ = *std::move(scap);
    return reader;
  }
  if (reader->size_ < sizeof(FileHeader)) {
    close(fd);
    return absl::InvalidArgumentError(
        absl::StrFormat("%s is not a Kestrel capture file (%u bytes)", path, reader->size_));
  }
  void* map = mmap(nullptr, reader->size_, PROT_READ, MAP_PRIVATE, fd, 0);
  const int e = errno;
  close(fd);
  if (map == MAP_FAILED) return absl::ErrnoToStatus(e, absl::StrFormat("cannot map %s", path));
  reader->map_ = static_cast<const uint8_t*>(map);
  madvise(map, reader->size_, MADV_SEQUENTIAL);

  FileHeader fh;
  std::memcpy(&fh, reader->map_, sizeof(fh));
  if (std::memcmp(fh.magic, kFileMagic, sizeof(fh.magic)) != 0) {
    return absl::InvalidArgumentError(absl::StrFormat("%s is not a Kestrel capture file", path));
  }
  if (fh.format_version > kFormatVersion) {
    return absl::FailedPreconditionError(absl::StrFormat(
        "%s was written by a newer Kestrel (capture format %u; this one reads up to %u)", path,
        fh.format_version, kFormatVersion));
  }
  if (fh.header_bytes < sizeof(FileHeader) || fh.header_bytes > reader->size_) {
    return absl::InvalidArgumentError(absl::StrFormat("%s has a damaged file header", path));
  }
  BlockHeader h;
  std::string why;
  if (!ReadBlock(reader->map_, reader->size_, fh.header_bytes, h, why) ||
      h.kind != static_cast<uint16_t>(BlockKind::kInfo) ||
      h.codec != static_cast<uint16_t>(Codec::kNone)) {
    return absl::DataLossError(
        absl::StrFormat("%s: the info block is damaged%s", path, why.empty() ? "" : ": " + why));
  }
  absl::StatusOr<CaptureInfo> info =
      DecodeCaptureInfo({reader->map_ + fh.header_bytes + sizeof(BlockHeader), h.stored_bytes});
  if (!info.ok()) {
    return absl::DataLossError(absl::StrFormat("%s: %s", path, info.status().message()));
  }
  if (info->event_schema.empty() && info->schema_version > KESTREL_SCHEMA_VERSION) {
    return absl::FailedPreconditionError(absl::StrFormat(
        "%s was written by a newer Kestrel (event schema %u, not embedded in the file; this one "
        "reads up to %u)",
        path, info->schema_version, KESTREL_SCHEMA_VERSION));
  }
  // Files written before the schema was embedded are read through the
  // schema of their version kept in this build.
  const std::span<const uint8_t> encoded =
      info->event_schema.empty() ? PastSchema(info->schema_version) : info->event_schema;
  if (info->event_schema.empty() && encoded.empty() &&
      info->schema_version != KESTREL_SCHEMA_VERSION) {
    return absl::FailedPreconditionError(
        absl::StrFormat("%s has event schema %u, which no Kestrel wrote without embedding it", path,
                        info->schema_version));
  }
  if (!encoded.empty()) {
    absl::StatusOr<std::unique_ptr<SchemaTable>> schema =
        DecodeSchema(encoded, info->schema_version);
    if (!schema.ok()) {
      return absl::DataLossError(absl::StrFormat("%s: %s", path, schema.status().message()));
    }
    reader->file_schema_ = *std::move(schema);
  }
  reader->info_ = *std::move(info);
  reader->format_ = fh.format_version;
  reader->next_block_ = fh.header_bytes + sizeof(BlockHeader) + h.stored_bytes;
  reader->zstd_ = ZSTD_createDCtx();
  return reader;
}

CaptureReader::~CaptureReader() {
  if (map_ != nullptr) munmap(const_cast<uint8_t*>(map_), size_);
  ZSTD_freeDCtx(zstd_);
}

const CaptureInfo& CaptureReader::info() const { return scap_ ? scap_->info() : info_; }

const std::optional<Damage>& CaptureReader::damage() const {
  return scap_ ? scap_->damage() : damage_;
}

uint64_t CaptureReader::records() const { return scap_ ? scap_->records() : records_; }

uint64_t CaptureReader::scap_known_events() const { return scap_ ? scap_->known_events() : 0; }

const std::map<std::string, uint64_t>& CaptureReader::scap_unknown_events() const {
  static const std::map<std::string, uint64_t>* const none = new std::map<std::string, uint64_t>;
  return scap_ ? scap_->unknown_events() : *none;
}

std::string CaptureReader::ScapSummary() const {
  const std::map<std::string, uint64_t>& unknown = scap_unknown_events();
  if (unknown.empty()) return "";
  // Most frequent first.
  std::vector<std::pair<std::string, uint64_t>> by_count(unknown.begin(), unknown.end());
  std::stable_sort(by_count.begin(), by_count.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  uint64_t total = 0;
  for (const auto& [name, n] : by_count) total += n;
  return absl::StrFormat("%u event%s of %u type%s not known to Kestrel: %s", total,
                         total == 1 ? "" : "s", by_count.size(), by_count.size() == 1 ? "" : "s",
                         absl::StrJoin(by_count, ", ", [](std::string* out, const auto& e) {
                           absl::StrAppend(out, e.first, " ", e.second);
                         }));
}

bool CaptureReader::Fail(uint64_t offset, std::string what) {
  damage_ = Damage{offset, size_ - offset, std::move(what)};
  block_records_left_ = 0;
  return false;
}

bool CaptureReader::LoadBlock() {
  while (!damage_ && next_block_ < size_) {
    BlockHeader h;
    std::string why;
    if (!ReadBlock(map_, size_, next_block_, h, why)) return Fail(next_block_, std::move(why));
    const uint8_t* stored = map_ + next_block_ + sizeof(BlockHeader);
    block_offset_ = next_block_;
    if (h.codec == static_cast<uint16_t>(Codec::kNone)) {
      if (h.stored_bytes != h.raw_bytes) {
        return Fail(next_block_,
                    absl::StrFormat("the block at byte %u has inconsistent sizes", next_block_));
      }
      block_ = stored;
    } else if (h.codec == static_cast<uint16_t>(Codec::kZstd)) {
      decoded_.resize(h.raw_bytes);
      const size_t n =
          ZSTD_decompressDCtx(zstd_, decoded_.data(), decoded_.size(), stored, h.stored_bytes);
      if (ZSTD_isError(n) || n != h.raw_bytes) {
        return Fail(next_block_,
                    absl::StrFormat("the block at byte %u does not decompress", next_block_));
      }
      block_ = decoded_.data();
    } else {
      return Fail(next_block_, absl::StrFormat("the block at byte %u uses unknown codec %u",
                                               next_block_, h.codec));
    }
    next_block_ += sizeof(BlockHeader) + h.stored_bytes;
    if (h.kind != static_cast<uint16_t>(BlockKind::kSnapshot) &&
        h.kind != static_cast<uint16_t>(BlockKind::kEvents)) {
      continue;  // a later writer's block kind: skipped whole
    }
    block_is_snapshot_ = h.kind == static_cast<uint16_t>(BlockKind::kSnapshot);
    block_size_ = h.raw_bytes;
    block_at_ = 0;
    block_records_left_ = h.records;
    if (block_records_left_ > 0) return true;
  }
  return false;
}

const kestrel_record_header* CaptureReader::Next(bool* snapshot) {
  if (scap_) return scap_->Next(snapshot);
  if (block_records_left_ == 0 && !LoadBlock()) return nullptr;
  const size_t left = block_size_ - block_at_;
  kestrel_record_header h;
  if (left < sizeof(h)) {
    Fail(block_offset_,
         absl::StrFormat("the block at byte %u holds fewer records than it claims", block_offset_));
    return nullptr;
  }
  std::memcpy(&h, block_ + block_at_, sizeof(h));
  const uint64_t stride = RecordStride(format_, h.len);
  if (h.len < sizeof(h) || stride > left) {
    Fail(block_offset_,
         absl::StrFormat("a record in the block at byte %u has a bad length", block_offset_));
    return nullptr;
  }
  const uint8_t* bytes = block_ + block_at_;
  // Callers read the record as a struct: hand them an aligned copy when it
  // is not aligned in place (format 1, or a stored block).
  if (reinterpret_cast<uintptr_t>(bytes) % alignof(kestrel_record_header) != 0) {
    aligned_.resize((h.len + sizeof(uint64_t) - 1) / sizeof(uint64_t));
    std::memcpy(aligned_.data(), bytes, h.len);
    bytes = reinterpret_cast<const uint8_t*>(aligned_.data());
  }
  const auto* record = reinterpret_cast<const kestrel_record_header*>(bytes);
  block_at_ += stride;
  --block_records_left_;
  ++records_;
  if (snapshot != nullptr) *snapshot = block_is_snapshot_;
  return record;
}

}  // namespace kestrel::engine::capture_file
