// Waiting out the probe's programs that were already running when it was
// detached, so its counters and rings stop changing.
#ifndef KESTREL_LIBPMAN_PROGRAM_SETTLE_H_
#define KESTREL_LIBPMAN_PROGRAM_SETTLE_H_

#include "absl/status/status.h"

namespace kestrel::pman {

// Returns once every RCU read-side critical section that had begun on any
// CPU when it was called has ended. The kernel runs a tracepoint's BPF
// programs inside one, and a detached program is no longer found by new
// tracepoint hits, so after a detach this is the end of every run of it.
absl::Status WaitForRunningPrograms();

}  // namespace kestrel::pman

#endif  // KESTREL_LIBPMAN_PROGRAM_SETTLE_H_
