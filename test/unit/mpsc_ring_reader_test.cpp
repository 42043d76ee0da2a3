// RingReader on an MPSC ring laid out by hand as the probe lays it out
// (shared/mpsc_ring_format.h): what it must refuse to read is what a probe
// can only produce in a race, so it is set up here byte by byte. The probe
// writing real MPSC rings is covered by integration/mpsc_ring_test.cpp.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "ring_reader.h"
#include "shared/mpsc_ring_format.h"

namespace kestrel::pman {
namespace {

constexpr uint64_t kRingBytes = 4096;
constexpr uint32_t kKey = 0x5eed1234;

class MpscRingReaderTest : public ::testing::Test {
 protected:
  // Writes a committed record of `len` bytes at ring position `pos` whose
  // header carries the stamp of `stamp_pos`; returns the next position.
  uint64_t Put(uint64_t pos, uint32_t len, uint32_t flags = 0, uint64_t stamp_pos = ~0ULL) {
    const uint64_t stamp = KESTREL_MPSC_STAMP(stamp_pos == ~0ULL ? pos : stamp_pos, kKey);
    const uint64_t header = stamp << 32 | len | flags;
    uint8_t* at = data_.data() + (pos % kRingBytes);
    memcpy(at, &header, sizeof(header));
    kestrel_record_header rec{};
    rec.len = len;
    rec.ts_ns = pos;  // tells records apart
    if (!(flags & KESTREL_MPSC_PAD_BIT)) memcpy(at + KESTREL_MPSC_HDR_BYTES, &rec, sizeof(rec));
    return pos + KESTREL_MPSC_ROUND(len);
  }

  RingReader Reader() { return RingReader::ForMpsc(&head_, data_.data(), kRingBytes, kKey); }

  kestrel_mpsc_head head_{};
  std::vector<uint8_t> data_ = std::vector<uint8_t>(kRingBytes, 0);
};

TEST_F(MpscRingReaderTest, ReadsCommittedRecordsAndSkipsPads) {
  uint64_t pos = Put(0, sizeof(kestrel_record_header));
  const uint64_t pad_at = pos;
  pos = Put(pos, 120, KESTREL_MPSC_PAD_BIT);
  const uint64_t second = pos;
  pos = Put(pos, 100);
  head_.producer = pos;

  RingReader r = Reader();
  const kestrel_record_header* h = r.Peek();
  ASSERT_NE(h, nullptr);
  EXPECT_EQ(h->ts_ns, 0u);
  r.Release();
  h = r.Peek();
  ASSERT_NE(h, nullptr) << "the pad at " << pad_at << " was not skipped";
  EXPECT_EQ(h->ts_ns, second);
  EXPECT_EQ(h->len, 100u);
  r.Release();
  EXPECT_EQ(r.Peek(), nullptr);
  EXPECT_EQ(head_.consumer, pos) << "drained: the space goes back";
  EXPECT_EQ(pos % KESTREL_MPSC_ALIGN, 0u);
}

// Reserved but not yet written: whatever an earlier lap left there must not
// pass for a header, be it a header of another position or record bytes.
TEST_F(MpscRingReaderTest, RefusesHeadersStampedForAnotherPosition) {
  const uint64_t lap = kRingBytes;
  Put(lap, 64, 0, /*stamp_pos=*/0);  // the previous lap's header at this offset
  head_.producer = lap + KESTREL_MPSC_ROUND(64);
  head_.consumer = lap;
  RingReader r = Reader();
  EXPECT_EQ(r.Peek(), nullptr);
  Put(lap, 64);  // the producer writes its header
  const kestrel_record_header* h = r.Peek();
  ASSERT_NE(h, nullptr);
  EXPECT_EQ(h->ts_ns, lap);
}

TEST_F(MpscRingReaderTest, RefusesBusyAndNeverWrittenHeaders) {
  // The position whose stamp is 0: never-written zeroes carry that stamp.
  const uint64_t pos = uint64_t{kKey} * KESTREL_MPSC_ALIGN;
  ASSERT_EQ(KESTREL_MPSC_STAMP(pos, kKey), 0u);
  head_.consumer = pos;
  head_.producer = pos + kRingBytes;
  RingReader r = Reader();
  EXPECT_EQ(r.Peek(), nullptr) << "zeroes read as a record";

  Put(pos, 64, KESTREL_MPSC_BUSY_BIT);
  EXPECT_EQ(r.Peek(), nullptr) << "a record still being written was handed out";
  Put(pos, 64);
  const kestrel_record_header* h = r.Peek();
  ASSERT_NE(h, nullptr);
  EXPECT_EQ(h->ts_ns, pos);
}

}  // namespace
}  // namespace kestrel::pman
