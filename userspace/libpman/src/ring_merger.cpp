#include "ring_merger.h"

namespace kestrel::pman {

const kestrel_record_header* RingMerger::Next(int16_t* ring_index) {
  if (last_ >= 0) {
    rings_[last_].Release();
    last_ = -1;
  }
  const kestrel_record_header* best = nullptr;
  int best_ring = -1;
  for (size_t i = 0; i < rings_.size(); ++i) {
    const kestrel_record_header* head = rings_[i].Peek();
    if (head != nullptr && (best == nullptr || head->ts_ns < best->ts_ns)) {
      best = head;
      best_ring = static_cast<int>(i);
    }
  }
  if (best == nullptr) return nullptr;
  last_ = best_ring;
  *ring_index = static_cast<int16_t>(best_ring);
  return best;
}

void RingMerger::PublishAll() {
  for (RingReader& ring : rings_) ring.PublishConsumerPosition();
}

}  // namespace kestrel::pman
