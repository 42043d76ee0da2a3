#include "recorder_scan.h"

#include <algorithm>
#include <cstring>

#include "shared/record_format.h"

namespace kestrel::pman {
namespace {

static_assert(sizeof(kestrel_recorder_slot) == KESTREL_RECORDER_SLOT_BYTES);
static_assert(KESTREL_RECORDER_SLOT_PAYLOAD % sizeof(uint64_t) == 0);

uint64_t LoadAcquire(const __u64* word) { return __atomic_load_n(word, __ATOMIC_ACQUIRE); }
uint64_t LoadRelaxed(const __u64* word) { return __atomic_load_n(word, __ATOMIC_RELAXED); }

// The slot's header words, read after its sequence word; acquire for the
// reason CopyPayload gives.
struct PartHeader {
  uint32_t len;
  uint16_t part;
  uint16_t nparts;
};

PartHeader ReadPartHeader(const kestrel_recorder_slot& slot) {
  const uint64_t word = LoadAcquire(reinterpret_cast<const __u64*>(&slot.len));
  PartHeader h;
  h.len = static_cast<uint32_t>(word);
  h.part = static_cast<uint16_t>(word >> 32);
  h.nparts = static_cast<uint16_t>(word >> 48);
  return h;
}

// Word by word with atomic loads: the writer may be storing into the slot
// while we copy, and the sequence re-check decides whether the copy counts.
// Acquire loads (plain loads on x86), so that the re-check cannot be done
// before the copy; a fence would say the same, but ThreadSanitizer cannot
// model fences (GCC refuses them under -fsanitize=thread).
void CopyPayload(const kestrel_recorder_slot& slot, uint8_t* out, size_t bytes) {
  const auto* words = reinterpret_cast<const __u64*>(slot.payload);
  for (size_t i = 0; i * sizeof(uint64_t) < bytes; ++i) {
    const uint64_t w = LoadAcquire(&words[i]);
    std::memcpy(out + i * sizeof(uint64_t), &w, std::min(sizeof(w), bytes - i * sizeof(w)));
  }
}

bool PlausibleFirstPart(const PartHeader& h) {
  if (h.part != 0 || h.nparts == 0 || h.nparts > KESTREL_RECORDER_MAX_PARTS) return false;
  const uint64_t capacity = uint64_t{h.nparts} * KESTREL_RECORDER_SLOT_PAYLOAD;
  return h.len >= sizeof(kestrel_record_header) && h.len <= capacity &&
         h.len > capacity - KESTREL_RECORDER_SLOT_PAYLOAD;
}

}  // namespace

void ScanRing(const kestrel_recorder_slot* slots, uint32_t n_slots, const __u64* head,
              uint32_t ring, RecorderScan& out) {
  const uint64_t mask = n_slots - 1;
  const uint64_t end = LoadAcquire(head);
  uint64_t index = end > n_slots ? end - n_slots : 0;
  while (index < end) {
    const kestrel_recorder_slot& first = slots[index & mask];
    const uint64_t stamp = KESTREL_RECORDER_STAMP(index);
    const uint64_t seq = LoadAcquire(&first.seq);
    if (seq != stamp) {
      if (seq == stamp - 1) {
        ++out.stats.in_flight;
      } else if (seq > stamp) {
        ++out.stats.torn;  // overwritten by a newer lap since we read the head
      } else {
        ++out.stats.lost_slots;
      }
      ++index;
      continue;
    }
    const PartHeader h = ReadPartHeader(first);
    // A continuation whose first part is gone, or a header that cannot be.
    if (!PlausibleFirstPart(h) || index + h.nparts > end) {
      ++out.stats.lost_slots;
      ++index;
      continue;
    }
    const size_t offset = out.bytes.size();
    out.bytes.resize(offset + h.len);
    bool whole = true;
    for (uint32_t p = 0; p < h.nparts && whole; ++p) {
      const kestrel_recorder_slot& slot = slots[(index + p) & mask];
      const PartHeader ph = ReadPartHeader(slot);
      whole = (p == 0 || LoadAcquire(&slot.seq) == KESTREL_RECORDER_STAMP(index + p)) &&
              ph.part == p && ph.nparts == h.nparts && ph.len == h.len;
      const size_t done = size_t{p} * KESTREL_RECORDER_SLOT_PAYLOAD;
      if (whole) {
        CopyPayload(slot, out.bytes.data() + offset + done,
                    std::min<size_t>(KESTREL_RECORDER_SLOT_PAYLOAD, h.len - done));
      }
    }
    // The copies above (acquire loads) are complete before the sequence words
    // are read again: only then does an unchanged word prove nobody wrote
    // meanwhile.
    for (uint32_t p = 0; p < h.nparts && whole; ++p) {
      whole = LoadRelaxed(&slots[(index + p) & mask].seq) == KESTREL_RECORDER_STAMP(index + p);
    }
    kestrel_record_header rh{};
    if (whole) std::memcpy(&rh, out.bytes.data() + offset, sizeof(rh));
    if (!whole || rh.len != h.len) {
      out.bytes.resize(offset);
      ++out.stats.torn;
      index += whole ? h.nparts : 1;
      continue;
    }
    out.records.push_back({rh.ts_ns, ring, index, offset, h.len});
    index += h.nparts;
  }
}

std::vector<ScannedRecord> SelectNewest(const RecorderScan& scan, uint64_t last,
                                        uint64_t since_boot_ns) {
  std::vector<ScannedRecord> picked;
  picked.reserve(scan.records.size());
  for (const ScannedRecord& r : scan.records) {
    if (r.ts_ns >= since_boot_ns) picked.push_back(r);
  }
  std::sort(picked.begin(), picked.end(), [](const ScannedRecord& a, const ScannedRecord& b) {
    if (a.ts_ns != b.ts_ns) return a.ts_ns < b.ts_ns;
    if (a.ring != b.ring) return a.ring < b.ring;
    return a.index < b.index;
  });
  if (last != 0 && picked.size() > last) picked.erase(picked.begin(), picked.end() - last);
  return picked;
}

}  // namespace kestrel::pman
