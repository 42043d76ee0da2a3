// What the bench's consumer read, sorted by kind, so a window can be checked
// record by record against what the load threads issued and what the probe
// counted: markers carry losses, they are not records of the capture.
#ifndef KESTREL_TOOLS_BENCH_RECORD_TALLY_H_
#define KESTREL_TOOLS_BENCH_RECORD_TALLY_H_

#include <cstdint>

#include "shared/event_types.h"

namespace kestrel::bench {

struct RecordTally {
  uint64_t load_records = 0;      // generic records of the load syscall
  uint64_t specific_records = 0;  // specific syscall events, e.g. openat
  uint64_t params_missing = 0;    // specific events whose filler was not loaded
  uint64_t other_records = 0;     // control records, e.g. a settings change
  uint64_t markers = 0;           // drop markers
  uint64_t marked_lost = 0;       // records the markers say were lost

  void Add(const kestrel_record_header& h, uint32_t load_syscall) {
    if (h.type == KESTREL_EVT_DROP_MARKER) {
      ++markers;
      marked_lost += reinterpret_cast<const kestrel_drop_marker_record&>(h).lost;
    } else if (h.type == KESTREL_EVT_GENERIC_SYSCALL &&
               reinterpret_cast<const kestrel_generic_record&>(h).syscall_id == load_syscall) {
      ++load_records;
    } else if (h.type > KESTREL_EVT_SYSCALL_BASE) {
      ++specific_records;
      params_missing += (h.flags & KESTREL_RECORD_PARAMS_MISSING) ? 1 : 0;
    } else {
      ++other_records;
    }
  }
  uint64_t records() const { return load_records + specific_records + other_records; }

  RecordTally operator-(const RecordTally& o) const {
    return {.load_records = load_records - o.load_records,
            .specific_records = specific_records - o.specific_records,
            .params_missing = params_missing - o.params_missing,
            .other_records = other_records - o.other_records,
            .markers = markers - o.markers,
            .marked_lost = marked_lost - o.marked_lost};
  }
};

}  // namespace kestrel::bench

#endif  // KESTREL_TOOLS_BENCH_RECORD_TALLY_H_
