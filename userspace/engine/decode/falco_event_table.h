// Falco's event table as data: for every x86_64 syscall that Falco records
// with a specific event (falcosecurity/libs driver/syscall_table.c), the name
// of Falco's exit event and its parameter names in Falco's order, plus
// Falco's procexit. Kestrel names its parameters after these (an event may
// carry more, never fewer); `evt.arg[N]` follows the order here, and the
// coverage doc shows which Falco event each Kestrel event corresponds to.
#ifndef KESTREL_ENGINE_DECODE_FALCO_EVENT_TABLE_H_
#define KESTREL_ENGINE_DECODE_FALCO_EVENT_TABLE_H_

#include <string_view>
#include <vector>

namespace kestrel::engine {

struct FalcoEvent {
  std::string_view syscall;              // x86_64 name, e.g. "pread64"; empty for procexit
  std::string_view event;                // Falco's exit event id, e.g. "PPME_SYSCALL_OPENAT_2_X"
  std::vector<std::string_view> params;  // Falco's order
  // The event carries Falco's EF_WAITS flag: the thread waits in it
  // (evt.is_wait).
  bool waits = false;
};

// Every syscall with a specific Falco event, by syscall name.
const std::vector<FalcoEvent>& FalcoSyscallEvents();

// Falco's event for `syscall`, or nullptr when Falco records it generically.
const FalcoEvent* FindFalcoEvent(std::string_view syscall);

// Falco's procexit, which Kestrel's PROCESS_EXIT corresponds to.
const FalcoEvent& FalcoProcessExit();

}  // namespace kestrel::engine

#endif  // KESTREL_ENGINE_DECODE_FALCO_EVENT_TABLE_H_
