// RingMerger over MPSC rings laid out by hand: the order it hands records
// out in, across rings that fill, empty and fill again between calls. The
// probe feeding real rings is covered by integration/ordering_test.cpp.
#include "ring_merger.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "shared/mpsc_ring_format.h"

namespace kestrel::pman {
namespace {

constexpr uint64_t kMergerRingBytes = 4096;
constexpr uint32_t kMergerKey = 0xfeed5eed;
constexpr uint32_t kRecordBytes = sizeof(kestrel_record_header);

// One ring in test memory that records are committed to by hand.
struct HandRing {
  kestrel_mpsc_head head{};
  std::vector<uint8_t> data = std::vector<uint8_t>(kMergerRingBytes, 0);

  // Commits a record stamped `ts` at the producer position.
  void Commit(uint64_t ts) {
    const uint64_t pos = head.producer;
    const uint64_t header = KESTREL_MPSC_HEADER(pos, kMergerKey, kRecordBytes);
    kestrel_record_header rec{};
    rec.ts_ns = ts;
    rec.len = kRecordBytes;
    memcpy(data.data() + pos % kMergerRingBytes + KESTREL_MPSC_HDR_BYTES, &rec, sizeof(rec));
    memcpy(data.data() + pos % kMergerRingBytes, &header, sizeof(header));
    head.producer = pos + KESTREL_MPSC_ROUND(kRecordBytes);
  }
};

class RingMergerTest : public ::testing::Test {
 protected:
  RingMerger Merger() {
    std::vector<RingReader> readers;
    for (HandRing& r : rings_) {
      readers.push_back(RingReader::ForMpsc(&r.head, r.data.data(), kMergerRingBytes, kMergerKey));
    }
    return RingMerger(std::move(readers));
  }

  // (timestamp, ring) of every record the merger hands out until it has
  // none.
  static std::vector<std::pair<uint64_t, int>> Drain(RingMerger& m) {
    std::vector<std::pair<uint64_t, int>> out;
    int16_t ring = -1;
    while (const kestrel_record_header* h = m.Next(&ring)) out.emplace_back(h->ts_ns, ring);
    return out;
  }

  std::vector<HandRing> rings_ = std::vector<HandRing>(3);
};

using Out = std::vector<std::pair<uint64_t, int>>;

TEST_F(RingMergerTest, HandsOutTheOldestHeadOfAllRings) {
  for (uint64_t ts : {1, 4, 7, 8}) rings_[0].Commit(ts);
  for (uint64_t ts : {2, 5, 9}) rings_[1].Commit(ts);
  for (uint64_t ts : {3, 6}) rings_[2].Commit(ts);
  RingMerger m = Merger();
  EXPECT_EQ(Drain(m),
            (Out{{1, 0}, {2, 1}, {3, 2}, {4, 0}, {5, 1}, {6, 2}, {7, 0}, {8, 0}, {9, 1}}));
}

// The ring released last is looked at first; the others keep their heads
// from earlier calls. A record committed to a ring that was empty, between
// two calls, still comes out before every newer head.
TEST_F(RingMergerTest, ARingThatWasEmptyIsLookedAtAgainOnEveryCall) {
  for (uint64_t ts : {10, 20, 30}) rings_[2].Commit(ts);
  rings_[0].Commit(40);
  RingMerger m = Merger();
  int16_t ring = -1;
  const kestrel_record_header* h = m.Next(&ring);
  ASSERT_NE(h, nullptr);
  EXPECT_EQ(h->ts_ns, 10u);
  EXPECT_EQ(ring, 2);

  rings_[1].Commit(15);  // ring 1 was empty at the last call
  h = m.Next(&ring);
  ASSERT_NE(h, nullptr);
  EXPECT_EQ(h->ts_ns, 15u);
  EXPECT_EQ(ring, 1);

  rings_[0].Commit(41);  // behind ring 0's head, which the merger holds
  rings_[1].Commit(25);
  EXPECT_EQ(Drain(m), (Out{{20, 2}, {25, 1}, {30, 2}, {40, 0}, {41, 0}}));
  EXPECT_EQ(m.Next(&ring), nullptr);

  rings_[1].Commit(50);  // all drained, then one ring fills again
  EXPECT_EQ(Drain(m), (Out{{50, 1}}));
}

// A record still being written holds back only its own ring: the merger
// hands out the others and takes it once it is committed.
TEST_F(RingMergerTest, ARecordBeingWrittenHoldsBackOnlyItsRing) {
  rings_[0].Commit(1);
  rings_[0].Commit(3);
  HandRing& writing = rings_[1];
  const uint64_t at = writing.head.producer;
  const uint64_t busy = KESTREL_MPSC_HEADER(at, kMergerKey, kRecordBytes | KESTREL_MPSC_BUSY_BIT);
  memcpy(writing.data.data() + at, &busy, sizeof(busy));
  writing.head.producer = at + KESTREL_MPSC_ROUND(kRecordBytes);
  RingMerger m = Merger();
  EXPECT_EQ(Drain(m), (Out{{1, 0}, {3, 0}}));

  writing.head.producer = at;
  writing.Commit(2);  // committed at last, older than what came out
  EXPECT_EQ(Drain(m), (Out{{2, 1}}));
}

}  // namespace
}  // namespace kestrel::pman
