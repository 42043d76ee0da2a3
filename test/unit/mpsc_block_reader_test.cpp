// MpscBlockReader on rings of blocks laid out by hand as the probe lays them
// out (shared/mpsc_ring_format.h, "Blocks"): the interleavings, stalls and
// quiet lanes a probe produces only in races are set up here byte by byte.
// The probe writing real rings of blocks is covered by
// integration/mpsc_ring_test.cpp.
#include "mpsc_block_reader.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

namespace kestrel::pman {
namespace {

constexpr uint64_t kBlockRingBytes = 16384;
constexpr uint32_t kBlockShift = 10;  // 1 KiB blocks
constexpr uint64_t kBlock = uint64_t{1} << kBlockShift;
constexpr uint32_t kBlockKey = 0x0dd5eed5;
constexpr uint32_t kCpus = 2;
constexpr uint32_t kRecordLen = 100;  // 128 bytes of ring with its header

class MpscBlockReaderTest : public ::testing::Test {
 protected:
  MpscBlockReaderTest() : lanes_(kCpus) {}

  void Header(uint64_t pos, uint32_t len_word, uint64_t stamp_pos) {
    const uint64_t header = uint64_t{KESTREL_MPSC_STAMP(stamp_pos, kBlockKey)} << 32 | len_word;
    memcpy(data_.data() + (pos % kBlockRingBytes), &header, sizeof(header));
  }

  // Frames the block of `bytes` at `start` as `cpu`'s; returns where its
  // first record goes.
  uint64_t Block(uint64_t start, uint32_t cpu, uint64_t bytes = kBlock) {
    kestrel_mpsc_block_header bh{};
    bh.len = static_cast<uint32_t>(bytes - KESTREL_MPSC_HDR_BYTES);
    bh.stamp = KESTREL_MPSC_STAMP(start, kBlockKey);
    bh.cpu = cpu;
    memcpy(data_.data() + (start % kBlockRingBytes), &bh, sizeof(bh));
    head_.producer = std::max<uint64_t>(head_.producer, start + bytes);
    return start + KESTREL_MPSC_BLOCK_HDR_BYTES;
  }

  // A committed record stamped `ts` at `pos`; returns the next position.
  uint64_t Record(uint64_t pos, uint64_t ts) {
    Header(pos, kRecordLen, pos);
    kestrel_record_header rec{};
    rec.ts_ns = ts;
    rec.len = kRecordLen;
    memcpy(data_.data() + (pos % kBlockRingBytes) + KESTREL_MPSC_HDR_BYTES, &rec, sizeof(rec));
    return pos + KESTREL_MPSC_ROUND(kRecordLen);
  }

  // Closes a block at `pos`, as its CPU does: the rest is a pad.
  void Pad(uint64_t pos, uint64_t end) {
    Header(pos, static_cast<uint32_t>(end - pos - KESTREL_MPSC_HDR_BYTES) | KESTREL_MPSC_PAD_BIT,
           pos);
  }

  MpscBlockReader Reader() {
    return MpscBlockReader({.head = &head_,
                            .data = data_.data(),
                            .size = kBlockRingBytes,
                            .stamp_key = kBlockKey,
                            .block_shift = kBlockShift,
                            .lanes = lanes_.data(),
                            .n_cpus = kCpus});
  }

  // Timestamps of everything readable now, released as read.
  static std::vector<uint64_t> Drain(MpscBlockReader& r) {
    std::vector<uint64_t> ts;
    for (const kestrel_record_header* h = r.Peek(); h != nullptr; h = r.Peek()) {
      ts.push_back(h->ts_ns);
      r.Release();
    }
    return ts;
  }

  kestrel_mpsc_head head_{};
  std::vector<kestrel_mpsc_lane> lanes_;
  std::vector<uint8_t> data_ = std::vector<uint8_t>(kBlockRingBytes, 0);
};

// Each CPU's block holds its records in order; the two blocks overlap in
// time, and the reader hands out one stream in timestamp order.
TEST_F(MpscBlockReaderTest, MergesTheCpusBlocksByTimestamp) {
  uint64_t a = Block(0, 0);
  uint64_t b = Block(kBlock, 1);
  for (uint64_t ts : {1, 4, 5}) a = Record(a, ts);
  for (uint64_t ts : {2, 3, 6, 7}) b = Record(b, ts);
  Pad(a, kBlock);
  Pad(b, 2 * kBlock);

  MpscBlockReader r = Reader();
  EXPECT_EQ(Drain(r), (std::vector<uint64_t>{1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(head_.consumer, 2 * kBlock) << "both blocks read to their end: the space goes back";
}

// A record claimed and not yet written (what is there is an earlier lap's)
// holds back its CPU's later records only: the other CPU's come out, and the
// space from the stalled block on stays taken.
TEST_F(MpscBlockReaderTest, AStalledCpuHoldsBackOnlyItsOwnRecords) {
  uint64_t a = Block(0, 0);
  uint64_t b = Block(kBlock, 1);
  a = Record(a, 1);
  const uint64_t claimed = a;
  Header(claimed, kRecordLen, claimed + kBlockRingBytes);  // another lap's stamp
  a = Record(claimed + KESTREL_MPSC_ROUND(kRecordLen), 4);
  b = Record(b, 2);
  b = Record(b, 3);
  Pad(b, 2 * kBlock);
  lanes_[0].next = a;

  MpscBlockReader r = Reader();
  EXPECT_EQ(Drain(r), (std::vector<uint64_t>{1, 2, 3}));
  EXPECT_EQ(head_.consumer, 0u);

  Record(claimed, 3);  // its producer finishes
  EXPECT_EQ(Drain(r), (std::vector<uint64_t>{3, 4}));
}

// A CPU that went quiet with its block open: the reader waits
// kIdleCloseNs, then closes the block itself and gives its space back; the
// CPU's next record then opens a new block.
TEST_F(MpscBlockReaderTest, ClosesABlockItsCpuLeftOpenAndQuiet) {
  uint64_t a = Block(0, 0);
  a = Record(a, 1);
  a = Record(a, 2);
  lanes_[0].next = a;

  MpscBlockReader r = Reader();
  EXPECT_EQ(Drain(r), (std::vector<uint64_t>{1, 2}));
  EXPECT_EQ(head_.consumer, 0u) << "the block is open: its space is still the CPU's";
  EXPECT_EQ(lanes_[0].next, a);

  std::this_thread::sleep_for(std::chrono::nanoseconds(2 * MpscBlockReader::kIdleCloseNs));
  EXPECT_TRUE(Drain(r).empty());
  EXPECT_EQ(lanes_[0].next, kBlock) << "the lane must point past the closed block";
  EXPECT_EQ(head_.consumer, kBlock);

  uint64_t next = Block(kBlock, 0);
  Record(next, 3);
  EXPECT_EQ(Drain(r), (std::vector<uint64_t>{3}));
}

// The lane is past the stall: a record was claimed there and is still being
// written. Closing would cut it off, so the reader waits however long.
TEST_F(MpscBlockReaderTest, NeverClosesABlockWithARecordBeingWritten) {
  uint64_t a = Block(0, 0);
  a = Record(a, 1);
  lanes_[0].next = a + KESTREL_MPSC_ROUND(kRecordLen);  // claimed at `a`

  MpscBlockReader r = Reader();
  EXPECT_EQ(Drain(r), (std::vector<uint64_t>{1}));
  std::this_thread::sleep_for(std::chrono::nanoseconds(2 * MpscBlockReader::kIdleCloseNs));
  EXPECT_TRUE(Drain(r).empty());
  EXPECT_EQ(lanes_[0].next, a + KESTREL_MPSC_ROUND(kRecordLen));
  EXPECT_EQ(head_.consumer, 0u);

  Record(a, 2);
  EXPECT_EQ(Drain(r), (std::vector<uint64_t>{2}));
}

// An open block holding back a quarter of the ring that was read past it is
// closed at once, without waiting for its CPU to be quiet.
TEST_F(MpscBlockReaderTest, ClosesAtOnceABlockHoldingBackAQuarterOfTheRing) {
  uint64_t a = Block(0, 0);
  a = Record(a, 1);
  lanes_[0].next = a;
  const uint64_t blocks_after = kBlockRingBytes / 4 / kBlock;
  uint64_t ts = 2;
  for (uint64_t i = 1; i <= blocks_after; ++i) {
    uint64_t b = Block(i * kBlock, 1);
    b = Record(b, ts++);
    Pad(b, (i + 1) * kBlock);
  }

  MpscBlockReader r = Reader();
  EXPECT_EQ(Drain(r).size(), 1 + blocks_after);
  EXPECT_EQ(lanes_[0].next, kBlock);
  EXPECT_EQ(head_.consumer, (blocks_after + 1) * kBlock);
}

// A block larger than the block size (a record that does not fit one),
// a pad at the top level (a chunk's end), and a block header an earlier lap
// left, which ends what is readable.
TEST_F(MpscBlockReaderTest, ReadsLargeBlocksSkipsTopLevelPadsStopsAtStaleBlocks) {
  uint64_t a = Block(0, 0, 2 * kBlock);
  a = Record(a, 1);
  Pad(a, 2 * kBlock);
  Header(2 * kBlock, static_cast<uint32_t>(kBlock - KESTREL_MPSC_HDR_BYTES) | KESTREL_MPSC_PAD_BIT,
         2 * kBlock);
  uint64_t b = Block(3 * kBlock, 1);
  b = Record(b, 2);
  Pad(b, 4 * kBlock);
  // The next block was reserved; its header is still the last lap's.
  Header(4 * kBlock, static_cast<uint32_t>(kBlock - KESTREL_MPSC_HDR_BYTES),
         4 * kBlock - kBlockRingBytes);
  head_.producer = 5 * kBlock;

  MpscBlockReader r = Reader();
  EXPECT_EQ(Drain(r), (std::vector<uint64_t>{1, 2}));
  EXPECT_EQ(head_.consumer, 4 * kBlock);

  uint64_t c = Block(4 * kBlock, 0);
  c = Record(c, 3);
  Pad(c, 5 * kBlock);
  EXPECT_EQ(Drain(r), (std::vector<uint64_t>{3}));
  EXPECT_EQ(head_.consumer, 5 * kBlock);
}

}  // namespace
}  // namespace kestrel::pman
