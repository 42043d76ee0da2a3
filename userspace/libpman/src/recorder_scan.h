// Takes the committed records out of a recorder's mmapped slots while the
// probe keeps overwriting them (protocol in shared/recorder_format.h). Pure
// memory work, so it is tested on synthetic rings.
#ifndef KESTREL_LIBPMAN_RECORDER_SCAN_H_
#define KESTREL_LIBPMAN_RECORDER_SCAN_H_

#include <cstdint>
#include <vector>

#include "libpman_recorder.h"
#include "shared/recorder_format.h"

namespace kestrel::pman {

struct ScannedRecord {
  uint64_t ts_ns;
  uint32_t ring;
  uint64_t index;  // absolute index of the first slot
  size_t offset;   // into RecorderScan::bytes
  uint32_t length;
};

struct RecorderScan {
  std::vector<uint8_t> bytes;  // copies of every record taken, back to back
  std::vector<ScannedRecord> records;
  pman_recorder_read_stats stats{};
};

// Copies every committed record of one ring: `slots` has `n_slots` entries
// (a power of two) and `head` is the ring's head word. A record whose slots
// change while it is copied is counted as torn and not taken.
void ScanRing(const kestrel_recorder_slot* slots, uint32_t n_slots, const __u64* head,
              uint32_t ring, RecorderScan& out);

// Orders what ScanRing took by timestamp (ties: ring, then index) and keeps
// the newest `last` (0 = all) with ts_ns >= since_boot_ns.
std::vector<ScannedRecord> SelectNewest(const RecorderScan& scan, uint64_t last,
                                        uint64_t since_boot_ns);

}  // namespace kestrel::pman

#endif  // KESTREL_LIBPMAN_RECORDER_SCAN_H_
