#include "recorder_layout.h"

#include <bit>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"
#include "shared/recorder_format.h"

namespace kestrel::pman {

absl::StatusOr<RecorderLayout> PlanRecorderLayout(uint64_t size_bytes, bool per_cpu,
                                                  uint32_t n_possible_cpus) {
  if (size_bytes < kMinRecorderBytes || !std::has_single_bit(size_bytes)) {
    return absl::InvalidArgumentError(
        absl::StrFormat("recorder size %u: it must be a power of two of at least %u bytes",
                        size_bytes, kMinRecorderBytes));
  }
  if (n_possible_cpus == 0) return absl::InvalidArgumentError("no possible CPUs");
  RecorderLayout layout;
  layout.n_rings = per_cpu ? std::bit_ceil(n_possible_cpus) : 1;
  if (layout.n_rings > KESTREL_RECORDER_MAX_RINGS) {
    return absl::InvalidArgumentError(absl::StrFormat("%u rings: a recorder has at most %u",
                                                      layout.n_rings, KESTREL_RECORDER_MAX_RINGS));
  }
  const uint64_t slots = size_bytes / KESTREL_RECORDER_SLOT_BYTES / layout.n_rings;
  // Under this a ring holds too few records to be useful, and a page of
  // slots is the smallest the mmapped ring can be anyway.
  if (slots < 64) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "recorder size %u split over %u rings leaves %u slots per ring: at least 64 are needed",
        size_bytes, layout.n_rings, slots));
  }
  if (slots > UINT32_MAX / layout.n_rings) {
    return absl::InvalidArgumentError(absl::StrFormat("recorder size %u is too large", size_bytes));
  }
  layout.slots_per_ring = static_cast<uint32_t>(slots);
  if (layout.n_rings == 1 && n_possible_cpus > 1 &&
      slots >= uint64_t{kRecorderBatchSlots} * kRecorderBatchesPerRing) {
    layout.batch_shift = static_cast<uint32_t>(std::countr_zero(kRecorderBatchSlots));
  }
  return layout;
}

}  // namespace kestrel::pman
