#include "settings_store.h"

#include <cstdint>
#include <cstring>

namespace kestrel::pman {
namespace {

bool AnyTargetListSet(const kestrel_capture_settings& s) {
  for (uint32_t tgid : s.target_tgids) {
    if (tgid != 0) return true;
  }
  for (uint64_t cgroup : s.target_cgroups) {
    if (cgroup != 0) return true;
  }
  return false;
}

}  // namespace

void PublishSettings(kestrel_settings_store* store, const kestrel_capture_settings& requested) {
  kestrel_capture_settings settings = requested;
  settings.target_lists_set = AnyTargetListSet(settings) ? 1 : 0;
  const uint32_t active = __atomic_load_n(&store->active, __ATOMIC_ACQUIRE) & 1;
  kestrel_settings_slot* slot = &store->slots[active ^ 1];
  const uint32_t seq = __atomic_load_n(&slot->seq, __ATOMIC_RELAXED);

  // A probe still reading this slot from before the last flip sees the odd
  // sequence, or a changed one after the copy, and retries.
  __atomic_store_n(&slot->seq, seq + 1, __ATOMIC_RELAXED);
  __atomic_thread_fence(__ATOMIC_RELEASE);
  // The stamps change with every publish into this slot, so a copy that
  // mixes two publishes has a head different from its tail.
  __atomic_store_n(&slot->body.stamp_head, uint64_t{seq} + 2, __ATOMIC_RELAXED);
  std::memcpy(&slot->body.settings, &settings, sizeof(settings));
  __atomic_store_n(&slot->body.stamp_tail, uint64_t{seq} + 2, __ATOMIC_RELAXED);
  __atomic_store_n(&slot->seq, seq + 2, __ATOMIC_RELEASE);
  __atomic_store_n(&store->active, active ^ 1, __ATOMIC_RELEASE);
}

kestrel_capture_settings ReadSettings(const kestrel_settings_store* store) {
  kestrel_capture_settings out;
  for (;;) {
    const uint32_t active = __atomic_load_n(&store->active, __ATOMIC_ACQUIRE) & 1;
    const kestrel_settings_slot* slot = &store->slots[active];
    const uint32_t seq = __atomic_load_n(&slot->seq, __ATOMIC_ACQUIRE);
    if (seq & 1) continue;
    std::memcpy(&out, &slot->body.settings, sizeof(out));
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    if (__atomic_load_n(&slot->seq, __ATOMIC_RELAXED) == seq) return out;
  }
}

}  // namespace kestrel::pman
