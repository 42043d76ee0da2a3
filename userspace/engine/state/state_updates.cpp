#include "state_updates.h"

#include <array>

#include "absl/container/flat_hash_map.h"
#include "engine/decode/event_schema.h"

namespace kestrel::engine {

StateUpdate StateUpdateFor(uint16_t type) {
  static const std::array<StateUpdate, KESTREL_EVT_TYPE_MAX> table = [] {
    absl::flat_hash_map<std::string_view, StateUpdate> by_syscall;
    for (const StateUpdateEntry& e : ProcessStateUpdates()) by_syscall[e.syscall] = e.update;
    for (const StateUpdateEntry& e : FdStateUpdates()) by_syscall[e.syscall] = e.update;
    std::array<StateUpdate, KESTREL_EVT_TYPE_MAX> out{};
    for (const EventInfo& event : AllEvents()) {
      if (auto it = by_syscall.find(event.syscall);
          it != by_syscall.end() && event.type < out.size()) {
        out[event.type] = it->second;
      }
    }
    return out;
  }();
  return type < table.size() ? table[type] : nullptr;
}

}  // namespace kestrel::engine
