// How a flight recorder's bytes are split into rings of slots.
#ifndef KESTREL_LIBPMAN_RECORDER_LAYOUT_H_
#define KESTREL_LIBPMAN_RECORDER_LAYOUT_H_

#include <cstdint>

#include "absl/status/statusor.h"

namespace kestrel::pman {

// The smallest recorder: 512 slots.
inline constexpr uint64_t kMinRecorderBytes = uint64_t{64} * 1024;

// 4 KiB of slots: the head's line moves once per 32 records. A ring of
// fewer than 64 batches takes slots one by one, so what a quiet CPU leaves
// unused of its batch stays a small part of it.
inline constexpr uint32_t kRecorderBatchSlots = 32;
inline constexpr uint32_t kRecorderBatchesPerRing = 64;

struct RecorderLayout {
  uint32_t n_rings = 0;         // a power of two: the probe maps CPU c to ring c & (n_rings - 1)
  uint32_t slots_per_ring = 0;  // a power of two
  // log2 of the slots a CPU takes at once from a ring CPUs share; 0: one by
  // one (recorder_writer.h).
  uint32_t batch_shift = 0;
  uint64_t TotalSlots() const { return uint64_t{n_rings} * slots_per_ring; }
};

// `size_bytes` is the total for all rings: a power of two >= kMinRecorderBytes.
// Per CPU, each of the possible CPUs gets its own ring (their count rounded up
// to a power of two) and the bytes are split evenly. A ring shared by
// several CPUs is taken in batches of kRecorderBatchSlots once it holds
// kRecorderBatchesPerRing of them.
absl::StatusOr<RecorderLayout> PlanRecorderLayout(uint64_t size_bytes, bool per_cpu,
                                                  uint32_t n_possible_cpus);

}  // namespace kestrel::pman

#endif  // KESTREL_LIBPMAN_RECORDER_LAYOUT_H_
