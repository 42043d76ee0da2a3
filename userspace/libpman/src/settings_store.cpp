#include "settings_store.h"

#include <cstddef>
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

// The body goes word by word through atomic stores and loads: a reader may
// copy while the writer stores, and its sequence re-check decides whether
// the copy counts. Release stores and acquire loads (plain moves on x86)
// instead of fences, which ThreadSanitizer cannot model (GCC refuses them
// under -fsanitize=thread): no body store is seen before the odd sequence,
// and the re-check is not read before the copy.
static_assert(sizeof(kestrel_capture_settings) % sizeof(uint64_t) == 0);

void StoreWords(uint64_t* to, const void* from, size_t bytes) {
  for (size_t i = 0; i < bytes / sizeof(uint64_t); ++i) {
    uint64_t w;
    std::memcpy(&w, static_cast<const uint8_t*>(from) + i * sizeof(w), sizeof(w));
    __atomic_store_n(&to[i], w, __ATOMIC_RELEASE);
  }
}

void LoadWords(void* to, const uint64_t* from, size_t bytes) {
  for (size_t i = 0; i < bytes / sizeof(uint64_t); ++i) {
    const uint64_t w = __atomic_load_n(&from[i], __ATOMIC_ACQUIRE);
    std::memcpy(static_cast<uint8_t*>(to) + i * sizeof(w), &w, sizeof(w));
  }
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
  // The stamps change with every publish into this slot, so a copy that
  // mixes two publishes has a head different from its tail.
  __atomic_store_n(&slot->body.stamp_head, uint64_t{seq} + 2, __ATOMIC_RELEASE);
  StoreWords(reinterpret_cast<uint64_t*>(&slot->body.settings), &settings, sizeof(settings));
  __atomic_store_n(&slot->body.stamp_tail, uint64_t{seq} + 2, __ATOMIC_RELEASE);
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
    LoadWords(&out, reinterpret_cast<const uint64_t*>(&slot->body.settings), sizeof(out));
    if (__atomic_load_n(&slot->seq, __ATOMIC_RELAXED) == seq) return out;
  }
}

}  // namespace kestrel::pman
