// Arbitrary bytes as a flight recorder's mmapped ring, as `kestrel dump`
// reads it from a probe that may be writing or may have been tampered
// with: a head word, then the slots. Stamps, lengths, part numbers and
// part counts all lie; the scan must take only whole records, count the
// rest, and never read outside the slots.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "recorder_scan.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < sizeof(__u64) + sizeof(kestrel_recorder_slot)) return 0;
  __u64 head = 0;
  std::memcpy(&head, data, sizeof(head));
  data += sizeof(head);
  size -= sizeof(head);
  // The largest power of two of whole slots the input holds.
  uint32_t n_slots = 1;
  while (static_cast<size_t>(n_slots) * 2 * sizeof(kestrel_recorder_slot) <= size) n_slots *= 2;
  std::vector<kestrel_recorder_slot> slots(n_slots);
  std::memcpy(slots.data(), data, n_slots * sizeof(kestrel_recorder_slot));
  kestrel::pman::RecorderScan scan;
  kestrel::pman::ScanRing(slots.data(), n_slots, &head, 0, scan);
  for (const auto& r : kestrel::pman::SelectNewest(scan, 0, 0)) {
    if (r.offset + r.length > scan.bytes.size()) __builtin_trap();
  }
  return 0;
}
