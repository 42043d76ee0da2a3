// What a command took out of the rings, and which records --count counts.
#ifndef KESTREL_AGENT_PROBE_READ_TALLY_H_
#define KESTREL_AGENT_PROBE_READ_TALLY_H_

#include <cstdint>

#include "shared/event_types.h"
#include "shared/record_format.h"

namespace kestrel::agent {

// Drop markers are left out of every field: the probe counts them apart
// from records_written, so consumed + left_unread == records_written once
// the probe has settled and the rings are drained.
struct ReadTally {
  uint64_t consumed = 0;        // read while capturing, shown or not
  uint64_t undecodable = 0;     // of consumed: did not decode
  uint64_t syscall_events = 0;  // of consumed: what --count counts
  uint64_t left_unread = 0;     // drained at exit without being shown
};

// --count counts syscall events only. Control records (settings_changed,
// dropping-mode start/stop), drop markers and records of kernel events that
// are not a syscall (process exit) are shown but do not count: a limit of N
// then means N syscalls whatever else the capture reports.
inline bool IsSyscallEvent(const kestrel_record_header& record) {
  return record.type == KESTREL_EVT_GENERIC_SYSCALL ||
         (record.type > KESTREL_EVT_SYSCALL_BASE && record.type < KESTREL_EVT_TYPE_MAX);
}

// Whether `record` is one of the probe's records_written (a drop marker is
// not), and so enters the ReadTally.
inline bool CountsAsWritten(const kestrel_record_header& record) {
  return record.type != KESTREL_EVT_DROP_MARKER;
}

}  // namespace kestrel::agent

#endif  // KESTREL_AGENT_PROBE_READ_TALLY_H_
