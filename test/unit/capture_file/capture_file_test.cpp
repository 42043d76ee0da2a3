// Capture files round-trip records exactly, and a damaged file is read up
// to the damage, which the reader reports by byte offset.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "capture_temp_dir.h"
#include "engine/capture_file/capture_reader.h"
#include "engine/capture_file/capture_writer.h"
#include "engine/capture_file/crc32c.h"
#include "engine/capture_file/file_format.h"

namespace kestrel::engine::capture_file {
namespace {

// A record of `len` bytes whose body is a pattern of its index, so any
// byte that moves is noticed.
std::vector<uint8_t> Record(uint64_t index, uint32_t len) {
  std::vector<uint8_t> bytes(len);
  kestrel_record_header h{};
  h.ts_ns = 1000 + index;
  h.tid = static_cast<uint32_t>(index);
  h.tgid = 7;
  h.len = len;
  h.type = 1;
  h.version = KESTREL_SCHEMA_VERSION;
  std::memcpy(bytes.data(), &h, sizeof(h));
  for (uint32_t i = sizeof(h); i < len; ++i) bytes[i] = static_cast<uint8_t>(index * 31 + i);
  return bytes;
}

uint32_t LengthOf(uint64_t index) { return sizeof(kestrel_record_header) + (index * 7) % 200; }

class CaptureFileTest : public CaptureTempDirTest {
 protected:
  // Writes `snapshot` snapshot records and `events` event records.
  std::string Write(const std::string& name, uint64_t snapshot, uint64_t events,
                    WriterOptions options = {}) {
    const std::string path = Path(name);
    CaptureInfo info = CaptureInfoOfThisMachine();
    info.syscalls = {0, 3, 257};
    info.settings = {1, 2, 3, 4};
    info.writer = "kestrel test";
    auto writer = CaptureWriter::Create(path, info, options);
    EXPECT_TRUE(writer.ok()) << writer.status();
    if (!writer.ok()) return path;
    for (uint64_t i = 0; i < snapshot; ++i) {
      const std::vector<uint8_t> r = Record(i, LengthOf(i));
      EXPECT_TRUE(
          (*writer)->AppendSnapshot(reinterpret_cast<const kestrel_record_header*>(r.data())).ok());
    }
    for (uint64_t i = snapshot; i < snapshot + events; ++i) {
      const std::vector<uint8_t> r = Record(i, LengthOf(i));
      EXPECT_TRUE((*writer)->Append(reinterpret_cast<const kestrel_record_header*>(r.data())).ok());
    }
    EXPECT_TRUE((*writer)->Close().ok());
    return path;
  }

  // Reads every record, checking each against what was written; returns
  // how many were read.
  uint64_t ReadBack(CaptureReader& reader, uint64_t snapshot) {
    uint64_t n = 0;
    bool is_snapshot = false;
    while (const kestrel_record_header* r = reader.Next(&is_snapshot)) {
      const std::vector<uint8_t> want = Record(n, LengthOf(n));
      EXPECT_EQ(r->len, want.size()) << "record " << n;
      if (r->len == want.size()) {
        EXPECT_EQ(std::memcmp(r, want.data(), want.size()), 0) << "record " << n;
      }
      EXPECT_EQ(is_snapshot, n < snapshot) << "record " << n;
      ++n;
    }
    return n;
  }

  static std::vector<uint8_t> Bytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
  }
  std::string WriteBytes(const std::string& name, const std::vector<uint8_t>& bytes) {
    const std::string path = Path(name);
    std::ofstream(path, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()),
               static_cast<std::streamsize>(bytes.size()));
    return path;
  }

  // Offsets of every block header after the info block.
  static std::vector<size_t> BlockOffsets(const std::vector<uint8_t>& bytes) {
    std::vector<size_t> offsets;
    size_t at = sizeof(FileHeader);
    while (at + sizeof(BlockHeader) <= bytes.size()) {
      BlockHeader h;
      std::memcpy(&h, bytes.data() + at, sizeof(h));
      if (h.kind != static_cast<uint16_t>(BlockKind::kInfo)) offsets.push_back(at);
      at += sizeof(BlockHeader) + h.stored_bytes;
    }
    return offsets;
  }
};

TEST(Crc32cTest, MatchesTheKnownCheckValue) {
  // CRC-32C of "123456789" (RFC 3720's check value).
  EXPECT_EQ(Crc32c(0, "123456789", 9), 0xe3069283u);
  // Extending in pieces gives the same value.
  EXPECT_EQ(Crc32c(Crc32c(0, "12345", 5), "6789", 4), 0xe3069283u);
}

TEST_F(CaptureFileTest, RoundTripsInfoSnapshotAndEventsExactly) {
  WriterOptions options;
  options.block_bytes = 4096;  // many blocks
  const std::string path = Write("a.kcap", 300, 5000, options);
  auto reader = CaptureReader::Open(path);
  ASSERT_TRUE(reader.ok()) << reader.status();
  const CaptureInfo& info = (*reader)->info();
  EXPECT_EQ(info.schema_version, static_cast<uint32_t>(KESTREL_SCHEMA_VERSION));
  EXPECT_EQ(info.syscalls, (std::vector<uint32_t>{0, 3, 257}));
  EXPECT_EQ(info.settings, (std::vector<uint8_t>{1, 2, 3, 4}));
  EXPECT_EQ(info.writer, "kestrel test");
  EXPECT_FALSE(info.kernel_release.empty());
  EXPECT_GT(info.cpu_count, 0u);
  EXPECT_EQ(ReadBack(**reader, 300), 5300u);
  EXPECT_FALSE((*reader)->damage().has_value());
}

TEST_F(CaptureFileTest, UncompressedFilesRoundTripToo) {
  WriterOptions options;
  options.zstd_level = 0;
  const std::string path = Write("plain.kcap", 0, 2000, options);
  auto reader = CaptureReader::Open(path);
  ASSERT_TRUE(reader.ok()) << reader.status();
  EXPECT_EQ(ReadBack(**reader, 0), 2000u);
}

TEST_F(CaptureFileTest, AFileCutAtEveryBlockBoundaryReadsUpToTheCut) {
  WriterOptions options;
  options.block_bytes = 2048;
  const std::vector<uint8_t> whole = Bytes(Write("whole.kcap", 0, 3000, options));
  const std::vector<size_t> blocks = BlockOffsets(whole);
  ASSERT_GT(blocks.size(), 10u);
  // Records in the blocks before each boundary.
  uint64_t before = 0;
  for (size_t b = 0; b < blocks.size(); ++b) {
    const std::vector<uint8_t> cut(whole.begin(),
                                   whole.begin() + static_cast<long>(blocks[b] + 20));
    auto reader = CaptureReader::Open(WriteBytes("cut" + std::to_string(b) + ".kcap", cut));
    ASSERT_TRUE(reader.ok()) << reader.status();
    EXPECT_EQ(ReadBack(**reader, 0), before) << "cut in block " << b;
    ASSERT_TRUE((*reader)->damage().has_value());
    EXPECT_EQ((*reader)->damage()->offset, blocks[b]);
    EXPECT_EQ((*reader)->damage()->bytes_lost, 20u);
    EXPECT_NE((*reader)->damage()->what.find("cut short"), std::string::npos)
        << (*reader)->damage()->what;
    BlockHeader h;
    std::memcpy(&h, whole.data() + blocks[b], sizeof(h));
    before += h.records;
  }
}

TEST_F(CaptureFileTest, AFileCutAtRandomBytesNeverReadsPastTheCut) {
  WriterOptions options;
  options.block_bytes = 4096;
  const std::vector<uint8_t> whole = Bytes(Write("whole.kcap", 10, 3000, options));
  const std::vector<size_t> blocks = BlockOffsets(whole);
  std::mt19937 rng(42);
  std::uniform_int_distribution<size_t> at(blocks.front(), whole.size() - 1);
  for (int i = 0; i < 50; ++i) {
    const size_t cut_at = at(rng);
    // A cut at a block boundary leaves a whole, shorter file (the test
    // above): only cuts inside a block are damage.
    if (std::find(blocks.begin(), blocks.end(), cut_at) != blocks.end()) continue;
    const std::vector<uint8_t> cut(whole.begin(), whole.begin() + static_cast<long>(cut_at));
    auto reader = CaptureReader::Open(WriteBytes("rnd" + std::to_string(i) + ".kcap", cut));
    ASSERT_TRUE(reader.ok()) << reader.status();
    const uint64_t n = ReadBack(**reader, 10);
    EXPECT_LT(n, 3010u);
    ASSERT_TRUE((*reader)->damage().has_value()) << "cut at " << cut_at;
    EXPECT_LE((*reader)->damage()->offset, cut_at);
    EXPECT_EQ((*reader)->damage()->offset + (*reader)->damage()->bytes_lost, cut_at);
  }
}

TEST_F(CaptureFileTest, AFlippedByteIsCaughtByTheChecksum) {
  WriterOptions options;
  options.block_bytes = 4096;
  std::vector<uint8_t> bytes = Bytes(Write("whole.kcap", 0, 2000, options));
  const std::vector<size_t> blocks = BlockOffsets(bytes);
  ASSERT_GT(blocks.size(), 3u);
  bytes[blocks[2] + sizeof(BlockHeader) + 5] ^= 0x40;
  auto reader = CaptureReader::Open(WriteBytes("flipped.kcap", bytes));
  ASSERT_TRUE(reader.ok()) << reader.status();
  uint64_t want = 0;
  for (size_t b = 0; b < 2; ++b) {
    BlockHeader h;
    std::memcpy(&h, bytes.data() + blocks[b], sizeof(h));
    want += h.records;
  }
  EXPECT_EQ(ReadBack(**reader, 0), want);
  ASSERT_TRUE((*reader)->damage().has_value());
  EXPECT_EQ((*reader)->damage()->offset, blocks[2]);
  EXPECT_NE((*reader)->damage()->what.find("checksum mismatch in the block at byte " +
                                           std::to_string(blocks[2])),
            std::string::npos);
}

// A newer schema version is read through the schema the file embeds
// (embedded_schema_test.cpp); only a newer format is refused outright.
TEST_F(CaptureFileTest, NewerFormatsAreRefusedWithAClearMessage) {
  std::vector<uint8_t> bytes = Bytes(Write("whole.kcap", 0, 10));
  FileHeader fh;
  std::memcpy(&fh, bytes.data(), sizeof(fh));
  fh.format_version = kFormatVersion + 1;
  std::vector<uint8_t> newer = bytes;
  std::memcpy(newer.data(), &fh, sizeof(fh));
  auto reader = CaptureReader::Open(WriteBytes("newer.kcap", newer));
  ASSERT_FALSE(reader.ok());
  EXPECT_NE(std::string(reader.status().message()).find("newer Kestrel (capture format"),
            std::string::npos)
      << reader.status();
}

TEST_F(CaptureFileTest, OtherFilesAreNotCaptureFiles) {
  auto reader = CaptureReader::Open(
      WriteBytes("text.kcap", {'h', 'e', 'l', 'l', 'o', '\n', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}));
  ASSERT_FALSE(reader.ok());
  EXPECT_NE(std::string(reader.status().message()).find("is not a Kestrel capture file"),
            std::string::npos);
  EXPECT_FALSE(CaptureReader::Open(dir_ + "/missing.kcap").ok());
}

TEST_F(CaptureFileTest, SnapshotRecordsMustComeFirst) {
  auto writer = CaptureWriter::Create(Path("order.kcap"), CaptureInfoOfThisMachine());
  ASSERT_TRUE(writer.ok());
  const std::vector<uint8_t> r = Record(0, 64);
  const auto* h = reinterpret_cast<const kestrel_record_header*>(r.data());
  ASSERT_TRUE((*writer)->Append(h).ok());
  EXPECT_FALSE((*writer)->AppendSnapshot(h).ok());
}

// Format 2 pads every record to 8 bytes inside its block, so the reader
// hands records out in place; the padding is not part of the record.
TEST_F(CaptureFileTest, RecordsSitAtMultiplesOfEightInTheirBlock) {
  const std::string path = Write("aligned.kcap", 3, 40, WriterOptions{.zstd_level = 0});
  const std::vector<uint8_t> bytes = Bytes(path);
  FileHeader fh;
  std::memcpy(&fh, bytes.data(), sizeof(fh));
  EXPECT_EQ(fh.format_version, 2u);
  uint64_t index = 0;
  for (const size_t block : BlockOffsets(bytes)) {
    BlockHeader h;
    std::memcpy(&h, bytes.data() + block, sizeof(h));
    ASSERT_EQ(h.codec, static_cast<uint16_t>(Codec::kNone));
    EXPECT_EQ(h.raw_bytes % 8, 0u);
    size_t at = 0;
    for (uint32_t r = 0; r < h.records; ++r, ++index) {
      const uint8_t* record = bytes.data() + block + sizeof(BlockHeader) + at;
      const uint32_t len = LengthOf(index);
      const std::vector<uint8_t> want = Record(index, len);
      ASSERT_EQ(std::memcmp(record, want.data(), len), 0) << "record " << index;
      const size_t padded = (len + 7) / 8 * 8;
      for (size_t k = len; k < padded; ++k) EXPECT_EQ(record[k], 0) << "record " << index;
      at += padded;
    }
    EXPECT_EQ(at, h.raw_bytes);
  }
  EXPECT_EQ(index, 43u);
  auto reader = CaptureReader::Open(path);
  ASSERT_TRUE(reader.ok()) << reader.status();
  EXPECT_EQ(ReadBack(**reader, 3), 43u);
}

TEST_F(CaptureFileTest, AMillionRecordsRoundTrip) {
  const std::string path = Write("million.kcap", 0, 1'000'000);
  auto reader = CaptureReader::Open(path);
  ASSERT_TRUE(reader.ok()) << reader.status();
  EXPECT_EQ(ReadBack(**reader, 0), 1'000'000u);
  EXPECT_FALSE((*reader)->damage().has_value());
}

}  // namespace
}  // namespace kestrel::engine::capture_file
