#include "record_window.h"

#include <algorithm>
#include <cstring>

namespace kestrel::engine::capture_file {
namespace {

constexpr size_t RingBytes(size_t len) { return (len + 7) & ~size_t{7}; }

// The ring starts this small and doubles: a quiet host never pays for the
// whole bound.
constexpr size_t kFirstRingBytes = 64 << 10;

}  // namespace

RecordWindow::RecordWindow(RecordWindowLimits limits) : limits_(limits) {
  limits_.max_bytes = std::max<uint64_t>(limits_.max_bytes,
                                         RingBytes(static_cast<size_t>(KESTREL_MAX_RECORD_BYTES)));
}

void RecordWindow::Push(const kestrel_record_header* record) {
  if (record->len < sizeof(kestrel_record_header) || record->len > KESTREL_MAX_RECORD_BYTES) return;
  const size_t at = MakeRoom(RingBytes(record->len));
  std::memcpy(ring_.data() + at, record, record->len);
  entries_.push_back({at, record->len, record->ts_ns});
  tail_ = at + RingBytes(record->len);
  bytes_ += record->len;
  newest_ts_ = std::max<uint64_t>(newest_ts_, record->ts_ns);
  // Records of several CPUs arrive nearly, not strictly, in time order:
  // age is measured from the newest one seen.
  while (!entries_.empty() && entries_.front().ts_ns < newest_ts_ &&
         newest_ts_ - entries_.front().ts_ns > limits_.max_age_ns) {
    EvictFront();
  }
}

size_t RecordWindow::MakeRoom(size_t need) {
  if (entries_.empty()) tail_ = 0;
  const bool in_order = entries_.empty() || entries_.front().offset <= entries_.back().offset;
  if (tail_ + need > ring_.size() && ring_.size() < limits_.max_bytes && in_order) {
    ring_.resize(std::min<uint64_t>(limits_.max_bytes,
                                    std::max({2 * ring_.size(), tail_ + need, kFirstRingBytes})));
  }
  size_t at = tail_;
  if (at + need > ring_.size()) {
    // Wrap to the start: the older lap, from the tail to the end, goes
    // first (it is the oldest), then whatever the new record overwrites.
    while (!entries_.empty() && entries_.front().offset >= tail_) EvictFront();
    at = 0;
  }
  while (!entries_.empty() && entries_.front().offset >= at &&
         entries_.front().offset < at + need) {
    EvictFront();
  }
  return at;
}

void RecordWindow::EvictFront() {
  bytes_ -= entries_.front().len;
  entries_.pop_front();
  ++evicted_;
}

void RecordWindow::ForEach(const std::function<void(const kestrel_record_header*)>& visit) const {
  for (const Entry& e : entries_) {
    visit(reinterpret_cast<const kestrel_record_header*>(ring_.data() + e.offset));
  }
}

void RecordWindow::Clear() {
  entries_.clear();
  std::vector<uint8_t>().swap(ring_);
  tail_ = 0;
  bytes_ = 0;
  newest_ts_ = 0;
}

}  // namespace kestrel::engine::capture_file
