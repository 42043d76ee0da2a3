#include "ring_merger.h"

#include <algorithm>

namespace kestrel::pman {

const kestrel_record_header* RingMerger::Next(int16_t* ring_index) {
  const int released = last_;
  if (released >= 0) {
    rings_[released].Release();
    seen_[released] = nullptr;
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
  auto consider = [&](uint32_t i, const kestrel_record_header* head) {
    if (best == nullptr || head->ts_ns < best->ts_ns) {
      best = head;
      best_ring = static_cast<int>(i);
    }
  };
  // The released ring goes first: in a steady drain its new head is then
  // the only record first seen in this call, and the rings found empty
  // after it need no second look.
  const uint32_t n = static_cast<uint32_t>(rings_.size());
  const uint32_t start = released >= 0 ? static_cast<uint32_t>(released) : 0;
  uint32_t n_empty = 0;
  bool look_again = false;
  for (uint32_t k = 0; k < n; ++k) {
    const uint32_t i = start + k < n ? start + k : start + k - n;
    const kestrel_record_header* head = rings_[i].Peek();
    if (head == nullptr) {
      not_ready_[n_empty++] = i;
      continue;
    }
    if (head != seen_[i]) {
      seen_[i] = head;
      look_again |= n_empty > 0;
    }
    consider(i, head);
  }
  // A record committed before one first seen here is visible once that one
  // is: a ring found empty before such a sighting is looked at again, until
  // a look finds nothing new. Without this a thread that moved CPUs could
  // see its later record come out first.
  while (look_again) {
    look_again = false;
    uint32_t n_still = 0;
    for (uint32_t k = 0; k < n_empty; ++k) {
      const uint32_t i = not_ready_[k];
      const kestrel_record_header* head = rings_[i].Peek();
      if (head == nullptr) {
        not_ready_[n_still++] = i;
        continue;
      }
      seen_[i] = head;
      look_again |= n_still > 0;
      consider(i, head);
    }
    n_empty = n_still;
  }
  if (best == nullptr) return nullptr;
  last_ = best_ring;
  *ring_index = static_cast<int16_t>(best_ring);
  return best;
}

void RingMerger::PublishAll() {
  for (RingReader& ring : rings_) ring.PublishConsumerPosition();
}

uint64_t RingMerger::MaxUnreadBytes() const {
  uint64_t most = 0;
  for (const RingReader& ring : rings_) most = std::max(most, ring.UnreadBytes());
  return most;
}

}  // namespace kestrel::pman
