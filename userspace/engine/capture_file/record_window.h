// The flight recorder's memory: copies of the newest records, bounded by
// bytes and by age, oldest first, so that a capture opened on an alert can
// start before it. Records are copied back to back into one ring of bytes
// (8-byte aligned, as the probe's ring keeps them): no allocation per
// record once the ring has grown to what the traffic needs.
#ifndef KESTREL_ENGINE_CAPTURE_FILE_RECORD_WINDOW_H_
#define KESTREL_ENGINE_CAPTURE_FILE_RECORD_WINDOW_H_

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <vector>

#include "shared/record_format.h"

namespace kestrel::engine::capture_file {

struct RecordWindowLimits {
  // Ring bytes at most (records rounded up to 8 bytes each); at least
  // KESTREL_MAX_RECORD_BYTES, so any one record fits.
  uint64_t max_bytes = 64ull << 20;
  // A record older than the newest one seen by more than this goes.
  uint64_t max_age_ns = 5'000'000'000;
};

class RecordWindow {
 public:
  explicit RecordWindow(RecordWindowLimits limits);

  // Copies `record` (header.len bytes) in, evicting the oldest records
  // that leave no room or are too old.
  void Push(const kestrel_record_header* record);

  // Calls `visit` on every record held, oldest first; each is valid until
  // the next Push or Clear.
  void ForEach(const std::function<void(const kestrel_record_header*)>& visit) const;

  // Forgets every record and gives the memory back.
  void Clear();

  size_t records() const { return entries_.size(); }
  uint64_t bytes() const { return bytes_; }  // record bytes held
  uint64_t evicted() const { return evicted_; }
  const RecordWindowLimits& limits() const { return limits_; }

 private:
  struct Entry {
    size_t offset;
    uint32_t len;
    uint64_t ts_ns;
  };
  void EvictFront();
  // Where a record of `need` ring bytes goes, after evicting what it
  // would overwrite.
  size_t MakeRoom(size_t need);

  RecordWindowLimits limits_;
  std::vector<uint8_t> ring_;  // grows up to limits_.max_bytes
  std::deque<Entry> entries_;  // oldest first
  size_t tail_ = 0;            // just past the newest record
  uint64_t bytes_ = 0;
  uint64_t evicted_ = 0;
  uint64_t newest_ts_ = 0;
};

}  // namespace kestrel::engine::capture_file

#endif  // KESTREL_ENGINE_CAPTURE_FILE_RECORD_WINDOW_H_
