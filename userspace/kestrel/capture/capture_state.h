// What `capture` adds to the user's syscall selection so the thread table
// (and with it the name column) stays right, and what it then shows.
#ifndef KESTREL_CLI_CAPTURE_STATE_H_
#define KESTREL_CLI_CAPTURE_STATE_H_

#include <cstdint>
#include <cstdio>
#include <utility>
#include <vector>

#include "engine/output/event_printer.h"
#include "engine/state/thread_table.h"
#include "kestrel/capture/capture_options.h"

namespace kestrel::cli {

// The syscalls capture adds to the user's for its thread table. A live
// print shows only each thread's name, so it adds the syscalls that create,
// rename and end threads (engine::ProcessIdentitySyscalls()): every other
// state syscall's filler costs verification at start for a column nobody
// sees. A capture file (-w) is also input to `kestrel run --replay`, whose
// rules read descriptors, credentials and directories, and its rotated
// files start with the descriptor table: it adds every state syscall
// (engine::StateSyscalls()).
const std::vector<uint32_t>& AddedStateSyscalls(const CaptureOptions& options);

// The syscalls the probe must capture: the user's, plus
// AddedStateSyscalls().
std::vector<uint32_t> ShownAndStateSyscalls(const CaptureOptions& options);

// `options` with ShownAndStateSyscalls() as its syscall set.
CaptureOptions WithStateSyscalls(const CaptureOptions& options);

// What is printed: all but the added state syscalls the user did not
// select.
engine::ShownSyscalls ShownSyscallsOf(const CaptureOptions& options);

// Which records --count counts when they are written to a file: the
// syscall events the selection shows, as the live print counts them; the
// state syscalls added for the thread table are written, not counted.
class ShownEventCounter {
 public:
  explicit ShownEventCounter(engine::ShownSyscalls shown) : shown_(std::move(shown)) {}
  bool Counts(const kestrel_record_header& record);

 private:
  engine::ShownSyscalls shown_;
  std::vector<int8_t> by_type_ = std::vector<int8_t>(UINT16_MAX + 1, -1);  // -1: not yet known
};

// One line: how many records were consumed only to keep the thread table
// current, how big it grew and what it had to drop.
void PrintThreadTableStats(const engine::ThreadTable& threads, uint64_t state_only_records,
                           std::FILE* out);

}  // namespace kestrel::cli

#endif  // KESTREL_CLI_CAPTURE_STATE_H_
