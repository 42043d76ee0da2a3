// Hands out records from several rings in timestamp order.
//
// Ordering guarantee:
//  - Within one ring, records come out in the order the probe reserved them.
//  - Per thread, order always holds, across rings too: a thread commits each
//    record before it can reserve the next, on whatever CPU. The merger
//    looks again at every ring it found empty or mid-write before it first
//    saw a head, until a look finds no new head: anything committed before
//    a head was committed is visible by then, and wins if it is older.
//  - Across threads and rings, records come out by timestamp among those
//    committed at the time of the call; a record still being written
//    (reserved, not yet committed: a fraction of a microsecond) can come
//    out after a newer record of another ring.
#ifndef KESTREL_LIBPMAN_RING_MERGER_H_
#define KESTREL_LIBPMAN_RING_MERGER_H_

#include <cstdint>
#include <vector>

#include "ring_reader.h"

namespace kestrel::pman {

class RingMerger {
 public:
  explicit RingMerger(std::vector<RingReader> rings)
      : rings_(std::move(rings)), not_ready_(rings_.size()), seen_(rings_.size()) {}

  // Releases the record returned by the previous call and returns the next
  // one, or nullptr when every ring is empty. `ring_index` receives the ring
  // the record came from.
  const kestrel_record_header* Next(int16_t* ring_index);

  // Gives back all space read so far, e.g. before sleeping.
  void PublishAll();

  const std::vector<RingReader>& rings() const { return rings_; }

  // The fullest ring's RingReader::UnreadBytes().
  uint64_t MaxUnreadBytes() const;

 private:
  std::vector<RingReader> rings_;
  // Rings with no head in this call's first pass: sized once, so the
  // per-record path never touches the allocator.
  std::vector<uint32_t> not_ready_;
  // Each ring's head as an earlier call saw it, until released: a head
  // seen before this call needs no second look at the empty rings.
  std::vector<const kestrel_record_header*> seen_;
  int last_ = -1;  // ring holding the record handed out last
};

}  // namespace kestrel::pman

#endif  // KESTREL_LIBPMAN_RING_MERGER_H_
