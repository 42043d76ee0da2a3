// Which ring each CPU writes to, decided once at load time.
#ifndef KESTREL_LIBPMAN_RING_LAYOUT_H_
#define KESTREL_LIBPMAN_RING_LAYOUT_H_

#include <cstdint>

#include "absl/status/statusor.h"

namespace kestrel::pman {

struct RingLayout {
  uint32_t n_cpus = 0;           // possible CPUs, each mapped to a ring
  uint32_t cpus_per_buffer = 0;  // 0 = all CPUs share ring 0
  uint32_t n_rings = 0;
  uint64_t ring_bytes = 0;

  uint32_t RingOfCpu(uint32_t cpu) const {
    return cpus_per_buffer == 0 ? 0 : cpu / cpus_per_buffer;
  }
};

// Validates the requested topology and size for `n_cpus` possible CPUs.
absl::StatusOr<RingLayout> PlanRingLayout(uint32_t n_cpus, uint32_t cpus_per_buffer,
                                          uint64_t ring_bytes);

}  // namespace kestrel::pman

#endif  // KESTREL_LIBPMAN_RING_LAYOUT_H_
