#include "ring_merger.h"

namespace kestrel::pman {

const kestrel_record_header* RingMerger::Next(int16_t* ring_index) {
  if (last_ >= 0) {
    rings_[last_].Release();
    last_ = -1;
  }
  const kestrel_record_header* best = nullptr;
  int best_ring = -1;
  not_ready_.clear();
  for (size_t i = 0; i < rings_.size(); ++i) {
    const kestrel_record_header* head = rings_[i].Peek();
    if (head == nullptr) {
      not_ready_.push_back(static_cast<uint32_t>(i));
    } else if (best == nullptr || head->ts_ns < best->ts_ns) {
      best = head;
      best_ring = static_cast<int>(i);
    }
  }
  if (best == nullptr) return nullptr;
  // A record committed between our look at its ring and our look at the
  // best one's is visible now; if older, it goes first. Without this a
  // thread that moved CPUs could see its later record come out first.
  for (uint32_t i : not_ready_) {
    const kestrel_record_header* head = rings_[i].Peek();
    if (head != nullptr && head->ts_ns < best->ts_ns) {
      best = head;
      best_ring = static_cast<int>(i);
    }
  }
  last_ = best_ring;
  *ring_index = static_cast<int16_t>(best_ring);
  return best;
}

void RingMerger::PublishAll() {
  for (RingReader& ring : rings_) ring.PublishConsumerPosition();
}

}  // namespace kestrel::pman
