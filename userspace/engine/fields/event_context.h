// Everything the fields of one event are read from: the record, its decoded
// form, the thread that made it, the descriptor it is about, and the thread
// table for the thread's parents. Only pointers: building one allocates
// nothing, and each stays valid while the event is being evaluated.
#ifndef KESTREL_ENGINE_FIELDS_EVENT_CONTEXT_H_
#define KESTREL_ENGINE_FIELDS_EVENT_CONTEXT_H_

#include <cstdint>

#include "engine/decode/event_decoder.h"
#include "engine/decode/generic_syscall.h"
#include "engine/state/fd_info.h"
#include "engine/state/thread_info.h"
#include "engine/state/thread_table.h"
#include "shared/record_format.h"

namespace kestrel::engine::fields {

struct EventContext {
  const kestrel_record_header* header = nullptr;
  // One of these two: a specific event, or a generic syscall record.
  const DecodedEvent* event = nullptr;
  const GenericSyscall* generic = nullptr;
  // The thread as the table knows it; null when it does not.
  const ThreadInfo* thread = nullptr;
  // The descriptor the event is about (see EventFd), and its entry in the
  // thread's fd table; fd_info is null when the table does not know it.
  int64_t fd = -1;
  const FdInfo* fd_info = nullptr;
  // For lineage (proc.pname, proc.aname[N] ...); null: no parent is known.
  const ThreadTable* threads = nullptr;
  uint64_t num = 0;           // evt.num
  uint64_t boot_time_ns = 0;  // wall time of boot: ts_ns + this is the epoch time
};

// The descriptor an event refers to, as Falco picks it: the one a creating
// call returned (open*, socket, accept* ...), else its `fd` argument, else
// its `dirfd` argument; -1 when it has none (or the call failed to create
// one).
int64_t EventFd(const DecodedEvent& event);

// A context for `event` with its thread and descriptor looked up in
// `threads` (which must already have applied the event, so a descriptor the
// event created is known; for close, build the context before applying).
EventContext MakeEventContext(const DecodedEvent& event, const ThreadTable& threads, uint64_t num,
                              uint64_t boot_time_ns);
EventContext MakeGenericContext(const kestrel_record_header& header, const GenericSyscall& syscall,
                                const ThreadTable& threads, uint64_t num, uint64_t boot_time_ns);

}  // namespace kestrel::engine::fields

#endif  // KESTREL_ENGINE_FIELDS_EVENT_CONTEXT_H_
