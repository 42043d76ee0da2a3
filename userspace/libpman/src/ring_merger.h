// Hands out records from several rings in timestamp order.
//
// Ordering guarantee: records of one ring come out in the order the probe
// reserved them (per-thread order always holds, since a thread runs on one
// CPU at a time and reserves in program order). Across rings, the merger
// always returns the head with the smallest timestamp among the heads that
// are ready, so the stream is non-decreasing in time as long as no ring is
// lagging behind a record still being written.
#ifndef KESTREL_LIBPMAN_RING_MERGER_H_
#define KESTREL_LIBPMAN_RING_MERGER_H_

#include <cstdint>
#include <vector>

#include "ring_reader.h"

namespace kestrel::pman {

class RingMerger {
 public:
  explicit RingMerger(std::vector<RingReader> rings) : rings_(std::move(rings)) {}

  // Releases the record returned by the previous call and returns the next
  // one, or nullptr when every ring is empty. `ring_index` receives the ring
  // the record came from.
  const kestrel_record_header* Next(int16_t* ring_index);

  // Gives back all space read so far, e.g. before sleeping.
  void PublishAll();

  const std::vector<RingReader>& rings() const { return rings_; }

 private:
  std::vector<RingReader> rings_;
  int last_ = -1;  // ring holding the record handed out last
};

}  // namespace kestrel::pman

#endif  // KESTREL_LIBPMAN_RING_MERGER_H_
