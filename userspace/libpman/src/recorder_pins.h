// Where a flight recorder's objects are pinned in bpffs, and how they are
// created and removed.
#ifndef KESTREL_LIBPMAN_RECORDER_PINS_H_
#define KESTREL_LIBPMAN_RECORDER_PINS_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "libpman_recorder.h"

namespace kestrel::pman {

struct RecorderPins {
  std::string dir;        // <pin_root>/<name>
  std::string link;       // the sys_exit link: unpinning it detaches the probe
  std::string fork_link;  // sched_process_fork: the parent's clone records
  std::string exit_link;  // sched_process_exit: process exit records
  std::string slots;      // the overwrite ring(s)
  std::string heads;      // one head word per ring
  std::string info;       // struct kestrel_recorder_info
  std::string counters;   // the per-CPU counters
  std::string fillers;    // the fillers' tail-call table: the kernel empties
                          // a prog array when no fd or pin holds it
  std::string control;    // the control block (.bss): `kestrel syscalls` and
                          // `kestrel settings` change a running recorder here

  // Every pinned file, in the order stop removes them (link first, so the
  // probe stops writing before its maps go).
  std::vector<std::string> Files() const {
    return {link, fork_link, exit_link, slots, heads, info, counters, fillers, control};
  }
};

// Validates the name (it becomes a directory) and builds the paths.
absl::StatusOr<RecorderPins> RecorderPinsFor(const pman_recorder_options& options);

// Creates the root (0700) if missing and the recorder's directory (0700);
// AlreadyExists when the recorder is already there.
absl::Status CreatePinDirectory(const RecorderPins& pins);

// Removes every pin and the directory; NotFound when there is no directory.
// Removing what is already gone is not an error.
absl::Status RemovePins(const RecorderPins& pins);

}  // namespace kestrel::pman

#endif  // KESTREL_LIBPMAN_RECORDER_PINS_H_
