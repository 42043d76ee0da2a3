#include "ring_layout.h"

#include <unistd.h>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"

namespace kestrel::pman {

absl::StatusOr<RingLayout> PlanRingLayout(uint32_t n_cpus, uint32_t cpus_per_buffer,
                                          uint64_t ring_bytes) {
  const uint64_t page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  if (n_cpus == 0) return absl::InvalidArgumentError("no possible CPUs reported");
  if (ring_bytes < page || (ring_bytes & (ring_bytes - 1)) != 0) {
    return absl::InvalidArgumentError(
        absl::StrFormat("buffer size %u bytes: must be a power of two and at least one page (%u)",
                        ring_bytes, page));
  }
  // The kernel caps a ringbuf's data area below 4 GiB on 64-bit.
  if (ring_bytes > (1ULL << 31)) {
    return absl::InvalidArgumentError(
        absl::StrFormat("buffer size %u bytes: larger than the 2 GiB a ring can hold", ring_bytes));
  }
  RingLayout layout;
  layout.n_cpus = n_cpus;
  layout.cpus_per_buffer = cpus_per_buffer >= n_cpus ? 0 : cpus_per_buffer;
  layout.n_rings =
      layout.cpus_per_buffer == 0 ? 1 : (n_cpus + cpus_per_buffer - 1) / cpus_per_buffer;
  layout.ring_bytes = ring_bytes;
  return layout;
}

}  // namespace kestrel::pman
