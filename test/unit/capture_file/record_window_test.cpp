// The flight recorder's window: what it keeps (newest records, oldest
// first), what bounds it (bytes, age) and what it counts as evicted.
#include "engine/capture_file/record_window.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

namespace kestrel::engine::capture_file {
namespace {

// A record of `len` bytes whose tid numbers it and whose payload bytes all
// repeat that number, so a copy that was overwritten shows.
std::vector<uint8_t> Record(uint32_t n, uint64_t ts_ns, uint32_t len) {
  std::vector<uint8_t> bytes(len, static_cast<uint8_t>(n));
  kestrel_record_header h{};
  h.ts_ns = ts_ns;
  h.tid = n;
  h.tgid = n;
  h.len = len;
  h.type = 7;
  std::memcpy(bytes.data(), &h, sizeof h);
  return bytes;
}

void Push(RecordWindow& w, uint32_t n, uint64_t ts_ns, uint32_t len) {
  const std::vector<uint8_t> r = Record(n, ts_ns, len);
  w.Push(reinterpret_cast<const kestrel_record_header*>(r.data()));
}

// The tids held, oldest first; every copy checked byte for byte.
std::vector<uint32_t> Held(const RecordWindow& w) {
  std::vector<uint32_t> tids;
  w.ForEach([&](const kestrel_record_header* h) {
    const std::vector<uint8_t> want = Record(h->tid, h->ts_ns, h->len);
    EXPECT_EQ(std::memcmp(h, want.data(), want.size()), 0) << "record " << h->tid;
    tids.push_back(h->tid);
  });
  return tids;
}

constexpr uint64_t kSecond = 1'000'000'000;
constexpr uint32_t kMaxRecord = KESTREL_MAX_RECORD_BYTES;

TEST(RecordWindowTest, KeepsEveryRecordInOrderWithinItsBounds) {
  RecordWindow w({.max_bytes = 1 << 20, .max_age_ns = 10 * kSecond});
  std::vector<uint32_t> want;
  for (uint32_t n = 1; n <= 100; ++n) {
    Push(w, n, n * 1000, 32 + n);  // lengths not multiples of 8
    want.push_back(n);
  }
  EXPECT_EQ(Held(w), want);
  EXPECT_EQ(w.records(), 100u);
  EXPECT_EQ(w.evicted(), 0u);
  uint64_t bytes = 0;
  for (uint32_t n = 1; n <= 100; ++n) bytes += 32 + n;
  EXPECT_EQ(w.bytes(), bytes);
}

TEST(RecordWindowTest, EvictsTheOldestWhenTheBytesRunOut) {
  // The bound rounds up to one largest record: 64 KiB. 1 KiB records: 64 fit.
  RecordWindow w({.max_bytes = 1, .max_age_ns = 100 * kSecond});
  EXPECT_EQ(w.limits().max_bytes, kMaxRecord);
  for (uint32_t n = 1; n <= 200; ++n) Push(w, n, n, 1024);
  std::vector<uint32_t> want;
  for (uint32_t n = 200 - 64 + 1; n <= 200; ++n) want.push_back(n);
  EXPECT_EQ(Held(w), want);
  EXPECT_EQ(w.evicted(), 200u - 64);
  EXPECT_EQ(w.bytes(), 64u * 1024);
}

TEST(RecordWindowTest, WrapsRecordsOfMixedSizesWithoutTearingOne) {
  RecordWindow w({.max_bytes = kMaxRecord, .max_age_ns = 100 * kSecond});
  uint64_t pushed = 0;
  for (uint32_t n = 1; n <= 500; ++n) {
    const uint32_t len = 40 + (n * 2654435761u) % 9000;
    Push(w, n, n, len);
    ++pushed;
    const std::vector<uint32_t> held = Held(w);  // checks every copy
    ASSERT_FALSE(held.empty());
    EXPECT_EQ(held.back(), n);
    // Consecutive: the window is always the newest records.
    for (size_t i = 1; i < held.size(); ++i) ASSERT_EQ(held[i], held[i - 1] + 1);
    EXPECT_LE(w.bytes(), kMaxRecord);
    EXPECT_EQ(w.evicted() + w.records(), pushed);
  }
}

TEST(RecordWindowTest, HoldsOneRecordOfTheLargestSize) {
  RecordWindow w({.max_bytes = 1, .max_age_ns = kSecond});
  Push(w, 1, 1, 100);
  Push(w, 2, 2, kMaxRecord);
  EXPECT_EQ(Held(w), std::vector<uint32_t>{2});
  EXPECT_EQ(w.evicted(), 1u);
}

TEST(RecordWindowTest, EvictsRecordsOlderThanTheAgeBound) {
  RecordWindow w({.max_bytes = 1 << 20, .max_age_ns = 2 * kSecond});
  Push(w, 1, 10 * kSecond, 64);
  Push(w, 2, 11 * kSecond, 64);
  Push(w, 3, 12 * kSecond, 64);  // 1 is exactly 2 s old: kept
  EXPECT_EQ(Held(w), (std::vector<uint32_t>{1, 2, 3}));
  Push(w, 4, 12 * kSecond + 1, 64);  // 1 is now older than 2 s
  EXPECT_EQ(Held(w), (std::vector<uint32_t>{2, 3, 4}));
  Push(w, 5, 20 * kSecond, 64);  // everything before is too old
  EXPECT_EQ(Held(w), std::vector<uint32_t>{5});
  EXPECT_EQ(w.evicted(), 4u);
  EXPECT_EQ(w.bytes(), 64u);
}

TEST(RecordWindowTest, MeasuresAgeFromTheNewestRecordSeen) {
  // Another CPU's record, a little older, arriving late: it does not make
  // the window's clock go back; it goes with the records around it.
  RecordWindow w({.max_bytes = 1 << 20, .max_age_ns = 2 * kSecond});
  Push(w, 1, 10 * kSecond, 64);
  Push(w, 2, 9 * kSecond, 64);
  Push(w, 3, 11 * kSecond, 64);  // 2 is exactly 2 s older than the newest
  EXPECT_EQ(Held(w), (std::vector<uint32_t>{1, 2, 3}));
  Push(w, 4, 12 * kSecond + 1, 64);  // 1 and 2 are both past the bound now
  EXPECT_EQ(Held(w), (std::vector<uint32_t>{3, 4}));
  Push(w, 5, 12 * kSecond + 2, 64);  // an older time does not evict anything
  Push(w, 6, 8 * kSecond, 64);
  EXPECT_EQ(Held(w), (std::vector<uint32_t>{3, 4, 5, 6}));
  EXPECT_EQ(w.evicted(), 2u);
}

TEST(RecordWindowTest, IgnoresRecordsWithAnImpossibleLength) {
  RecordWindow w({.max_bytes = 1 << 20, .max_age_ns = kSecond});
  std::vector<uint8_t> r = Record(1, 1, 64);
  reinterpret_cast<kestrel_record_header*>(r.data())->len = 8;
  w.Push(reinterpret_cast<const kestrel_record_header*>(r.data()));
  EXPECT_EQ(w.records(), 0u);
}

TEST(RecordWindowTest, ClearForgetsEverythingAndStartsAgain) {
  RecordWindow w({.max_bytes = 1 << 20, .max_age_ns = kSecond});
  for (uint32_t n = 1; n <= 10; ++n) Push(w, n, n, 100);
  w.Clear();
  EXPECT_EQ(w.records(), 0u);
  EXPECT_EQ(w.bytes(), 0u);
  EXPECT_TRUE(Held(w).empty());
  Push(w, 11, 1, 100);  // an earlier time than before the clear: kept
  EXPECT_EQ(Held(w), std::vector<uint32_t>{11});
}

}  // namespace
}  // namespace kestrel::engine::capture_file
