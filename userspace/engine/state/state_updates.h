// Which record changes which part of the state: one update function per
// event, looked up by the record's type. The tables name events by syscall,
// so an update written for an event the schema does not have yet takes
// effect as soon as the event exists.
#ifndef KESTREL_ENGINE_STATE_STATE_UPDATES_H_
#define KESTREL_ENGINE_STATE_STATE_UPDATES_H_

#include <cstdint>
#include <span>
#include <string_view>

#include "engine/decode/event_decoder.h"
#include "thread_info.h"

namespace kestrel::engine {

// Threads other than the record's own, for the few records that change
// another thread (setpgid of a child).
class OtherThreads {
 public:
  virtual ThreadInfo* FindThread(uint32_t tid) = 0;

 protected:
  ~OtherThreads() = default;
};

// Applies one record to the thread that made it. `thread.fds` is set (the
// caller shares or creates the process's table first).
using StateUpdate = void (*)(ThreadInfo& thread, const DecodedEvent& event, OtherThreads& others);

struct StateUpdateEntry {
  std::string_view syscall;  // the event's syscall, as the schema names it
  StateUpdate update;
};

// Credentials, cwd/root, capabilities, session and group (process_updates.cpp).
std::span<const StateUpdateEntry> ProcessStateUpdates();
// Descriptors (fd_updates.cpp).
std::span<const StateUpdateEntry> FdStateUpdates();

// The update of event `type`, or nullptr for a record that changes nothing
// here (clone, exec, prctl and exit are the thread table's own).
StateUpdate StateUpdateFor(uint16_t type);

// Whether the call the record reports returned 0: only a successful call
// changes state.
inline bool Succeeded(const DecodedEvent& event) { return event.Return() == 0; }

// After a successful exec: descriptors opened close-on-exec are gone.
void CloseOnExec(ThreadInfo& thread);

}  // namespace kestrel::engine

#endif  // KESTREL_ENGINE_STATE_STATE_UPDATES_H_
