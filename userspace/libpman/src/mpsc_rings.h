// The MPSC rings of a probe whose rings are shared by several CPUs
// (shared/mpsc_ring_format.h): sized before the probe loads, then mapped
// into this process, pointed at by every CPU and read in place.
#ifndef KESTREL_LIBPMAN_MPSC_RINGS_H_
#define KESTREL_LIBPMAN_MPSC_RINGS_H_

#include <cstdint>
#include <memory>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "probe_object.h"
#include "ring_layout.h"
#include "ring_reader.h"

namespace kestrel::pman {

class MpscRings {
 public:
  // Sizes the object's MPSC maps and load-time constants for `layout`,
  // with a fresh stamp key. Call between open and load.
  static absl::StatusOr<std::unique_ptr<MpscRings>> Configure(ProbeObject& object,
                                                              const RingLayout& layout);

  MpscRings(const MpscRings&) = delete;
  MpscRings& operator=(const MpscRings&) = delete;
  ~MpscRings();

  // After load: maps the rings and points each CPU at its own.
  absl::Status Connect(const ProbeObject& object);

  // A reader of ring `ring`, once connected; it must not outlive this
  // object.
  RingReader Reader(uint32_t ring) const;

  // What the kernel charges for the heads and the ring bytes.
  uint64_t locked_bytes() const { return locked_bytes_; }

 private:
  MpscRings(const RingLayout& layout, uint32_t stamp_key, uint32_t block_shift)
      : layout_(layout), stamp_key_(stamp_key), block_shift_(block_shift) {}

  RingLayout layout_;
  uint32_t stamp_key_;
  uint32_t block_shift_;  // 0: no blocks
  kestrel_mpsc_head* heads_ = nullptr;
  size_t heads_bytes_ = 0;
  kestrel_mpsc_lane* lanes_ = nullptr;
  size_t lanes_bytes_ = 0;
  uint8_t* data_ = nullptr;
  size_t data_bytes_ = 0;
  uint64_t locked_bytes_ = 0;
};

// log2 of the chunk an MPSC ring of `ring_bytes` (a power of two) is cut in.
uint32_t MpscChunkShift(uint64_t ring_bytes);

// log2 of the blocks the CPUs sharing a ring of `layout` reserve, or 0 when
// no ring is shared (shared/mpsc_ring_format.h, "Blocks").
uint32_t MpscBlockShift(const RingLayout& layout);

}  // namespace kestrel::pman

#endif  // KESTREL_LIBPMAN_MPSC_RINGS_H_
