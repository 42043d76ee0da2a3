#include "ring_merger.h"

namespace kestrel::pman {

const kestrel_record_header* RingMerger::Next(int16_t* ring_index) {
  if (last_ >= 0) {
    rings_[last_].Release();
    last_ = -1;
  }
  if (rings_.size() == 1) {
    const kestrel_record_header* head = rings_[0].Peek();
    if (head != nullptr) {
      last_ = 0;
      *ring_index = 0;
    }
    return head;
  }
  const kestrel_record_header* best = nullptr;
  int best_ring = -1;
  size_t n_not_ready = 0;
  for (size_t i = 0; i < rings_.size(); ++i) {
    const kestrel_record_header* head = rings_[i].Peek();
    if (head == nullptr) {
      not_ready_[n_not_ready++] = static_cast<uint32_t>(i);
    } else if (best == nullptr || head->ts_ns < best->ts_ns) {
      best = head;
      best_ring = static_cast<int>(i);
    }
  }
  if (best == nullptr) return nullptr;
  // A record committed between our look at its ring and our look at the
  // best one's is visible now; if older, it goes first. Without this a
  // thread that moved CPUs could see its later record come out first.
  for (size_t k = 0; k < n_not_ready; ++k) {
    const uint32_t i = not_ready_[k];
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
