// The recorder reader on synthetic rings: which slots it takes, in which
// order, and which it refuses (overwritten, in flight, orphaned parts).
#include "recorder_scan.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "shared/record_format.h"

namespace kestrel::pman {
namespace {

// Writes slots the way the probe does, one committed record at a time.
class FakeRing {
 public:
  explicit FakeRing(uint32_t n) : slots_(n) {}

  // A record of `len` bytes stamped `ts`, its body filled with `fill`.
  // Returns the index of its first slot.
  uint64_t Write(uint64_t ts, uint32_t len, uint8_t fill) {
    std::vector<uint8_t> bytes(len, fill);
    kestrel_record_header h{};
    h.ts_ns = ts;
    h.len = len;
    std::memcpy(bytes.data(), &h, sizeof(h));
    const uint16_t nparts = static_cast<uint16_t>((len + KESTREL_RECORDER_SLOT_PAYLOAD - 1) /
                                                  KESTREL_RECORDER_SLOT_PAYLOAD);
    const uint64_t first = head_;
    for (uint16_t p = 0; p < nparts; ++p) {
      kestrel_recorder_slot& s = Slot(first + p);
      s.len = len;
      s.part = p;
      s.nparts = nparts;
      const size_t done = size_t{p} * KESTREL_RECORDER_SLOT_PAYLOAD;
      std::memcpy(s.payload, bytes.data() + done,
                  std::min<size_t>(KESTREL_RECORDER_SLOT_PAYLOAD, len - done));
      s.seq = KESTREL_RECORDER_STAMP(first + p);
    }
    head_ += nparts;
    return first;
  }

  kestrel_recorder_slot& Slot(uint64_t index) { return slots_[index % slots_.size()]; }

  RecorderScan Scan(uint32_t ring = 0) {
    RecorderScan scan;
    ScanRing(slots_.data(), static_cast<uint32_t>(slots_.size()), &head_, ring, scan);
    return scan;
  }

 private:
  std::vector<kestrel_recorder_slot> slots_;
  __u64 head_ = 0;
};

std::vector<uint64_t> Timestamps(const RecorderScan& scan) {
  std::vector<uint64_t> ts;
  for (const ScannedRecord& r : scan.records) ts.push_back(r.ts_ns);
  return ts;
}

TEST(RecorderScanTest, EmptyRingHasNoRecords) {
  FakeRing ring(8);
  const RecorderScan scan = ring.Scan();
  EXPECT_TRUE(scan.records.empty());
  EXPECT_EQ(scan.stats.torn + scan.stats.in_flight + scan.stats.lost_slots, 0u);
}

TEST(RecorderScanTest, TakesEveryRecordBeforeTheFirstWrap) {
  FakeRing ring(8);
  for (uint64_t ts = 1; ts <= 5; ++ts) ring.Write(ts, 112, static_cast<uint8_t>(ts));
  const RecorderScan scan = ring.Scan();
  EXPECT_EQ(Timestamps(scan), (std::vector<uint64_t>{1, 2, 3, 4, 5}));
  ASSERT_EQ(scan.records.size(), 5u);
  const ScannedRecord& last = scan.records.back();
  EXPECT_EQ(last.length, 112u);
  EXPECT_EQ(scan.bytes[last.offset + last.length - 1], 5);
}

TEST(RecorderScanTest, KeepsOnlyTheNewestLapAfterWrapping) {
  FakeRing ring(8);
  for (uint64_t ts = 1; ts <= 21; ++ts) ring.Write(ts, 100, 0);
  EXPECT_EQ(Timestamps(ring.Scan()), (std::vector<uint64_t>{14, 15, 16, 17, 18, 19, 20, 21}));
}

TEST(RecorderScanTest, ReassemblesRecordsThatSpanSlots) {
  FakeRing ring(16);
  ring.Write(1, 112, 0xa1);
  ring.Write(2, 300, 0xb2);  // three slots
  ring.Write(3, 40, 0xc3);
  const RecorderScan scan = ring.Scan();
  ASSERT_EQ(Timestamps(scan), (std::vector<uint64_t>{1, 2, 3}));
  const ScannedRecord& big = scan.records[1];
  EXPECT_EQ(big.length, 300u);
  for (size_t i = sizeof(kestrel_record_header); i < 300; ++i) {
    ASSERT_EQ(scan.bytes[big.offset + i], 0xb2) << "byte " << i;
  }
}

TEST(RecorderScanTest, DropsAContinuationWhoseFirstPartWasOverwritten) {
  FakeRing ring(4);
  ring.Write(1, 112, 0);
  ring.Write(2, 112, 0);
  ring.Write(3, 300, 0);  // indices 2, 3, 4: index 4 lands on slot 0
  ring.Write(4, 112, 0);  // index 5: the window is now 2..5
  ring.Write(5, 112, 0);  // index 6: window 3..6, so record 3 lost its first part
  const RecorderScan scan = ring.Scan();
  EXPECT_EQ(Timestamps(scan), (std::vector<uint64_t>{4, 5}));
  EXPECT_EQ(scan.stats.lost_slots, 2u);  // the two orphaned parts
}

TEST(RecorderScanTest, SkipsASlotStillBeingWritten) {
  FakeRing ring(8);
  ring.Write(1, 112, 0);
  const uint64_t busy = ring.Write(2, 112, 0);
  ring.Write(3, 112, 0);
  ring.Slot(busy).seq = KESTREL_RECORDER_STAMP(busy) - 1;
  const RecorderScan scan = ring.Scan();
  EXPECT_EQ(Timestamps(scan), (std::vector<uint64_t>{1, 3}));
  EXPECT_EQ(scan.stats.in_flight, 1u);
}

TEST(RecorderScanTest, SkipsASlotANewerLapAlreadyClaimed) {
  FakeRing ring(8);
  for (uint64_t ts = 1; ts <= 4; ++ts) ring.Write(ts, 112, 0);
  // The head was read as 4, then a writer of the next lap claimed slot 1.
  ring.Slot(1).seq = KESTREL_RECORDER_STAMP(9) - 1;
  const RecorderScan scan = ring.Scan();
  EXPECT_EQ(Timestamps(scan), (std::vector<uint64_t>{1, 3, 4}));
  EXPECT_EQ(scan.stats.torn, 1u);
}

TEST(RecorderScanTest, RefusesAHeaderWhoseLengthDisagreesWithItsSlots) {
  FakeRing ring(8);
  const uint64_t i = ring.Write(1, 112, 0);
  kestrel_record_header h{};
  std::memcpy(&h, ring.Slot(i).payload, sizeof(h));
  h.len = 64;
  std::memcpy(ring.Slot(i).payload, &h, sizeof(h));
  const RecorderScan scan = ring.Scan();
  EXPECT_TRUE(scan.records.empty());
  EXPECT_EQ(scan.stats.torn, 1u);
}

TEST(RecorderScanTest, SelectNewestOrdersRingsByTimeAndKeepsTheLastN) {
  FakeRing a(8), b(8);
  for (uint64_t ts : {1, 4, 5}) a.Write(ts, 112, 0);
  for (uint64_t ts : {2, 3, 6}) b.Write(ts, 112, 0);
  RecorderScan merged = a.Scan(0);
  RecorderScan other = b.Scan(1);
  for (ScannedRecord r : other.records) {
    r.offset += merged.bytes.size();
    merged.records.push_back(r);
  }
  merged.bytes.insert(merged.bytes.end(), other.bytes.begin(), other.bytes.end());

  auto ts_of = [](const std::vector<ScannedRecord>& v) {
    std::vector<uint64_t> ts;
    for (const ScannedRecord& r : v) ts.push_back(r.ts_ns);
    return ts;
  };
  EXPECT_EQ(ts_of(SelectNewest(merged, 0, 0)), (std::vector<uint64_t>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(ts_of(SelectNewest(merged, 2, 0)), (std::vector<uint64_t>{5, 6}));
  EXPECT_EQ(ts_of(SelectNewest(merged, 0, 4)), (std::vector<uint64_t>{4, 5, 6}));
}

}  // namespace
}  // namespace kestrel::pman
