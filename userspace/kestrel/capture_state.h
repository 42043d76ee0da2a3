// What `capture` adds to the user's syscall selection so the thread table
// (and with it the name column) stays right, and what it then shows.
#ifndef KESTREL_CLI_CAPTURE_STATE_H_
#define KESTREL_CLI_CAPTURE_STATE_H_

#include <cstdint>
#include <cstdio>
#include <vector>

#include "capture_options.h"
#include "engine/output/event_printer.h"
#include "engine/state/thread_table.h"

namespace kestrel::cli {

// The syscalls the probe must capture: the user's, plus the ones that
// keep the thread table current (engine::StateSyscalls()).
std::vector<uint32_t> ShownAndStateSyscalls(const CaptureOptions& options);

// `options` with ShownAndStateSyscalls() as its syscall set.
CaptureOptions WithStateSyscalls(const CaptureOptions& options);

// What is printed: all but the state syscalls the user did not select.
engine::ShownSyscalls ShownSyscallsOf(const CaptureOptions& options);

// One line: how many records were consumed only to keep the thread table
// current, how big it grew and what it had to drop.
void PrintThreadTableStats(const engine::ThreadTable& threads, uint64_t state_only_records,
                           std::FILE* out);

}  // namespace kestrel::cli

#endif  // KESTREL_CLI_CAPTURE_STATE_H_
