// Where a flight recorder's objects are pinned in bpffs, and how they are
// created and removed.
#ifndef KESTREL_LIBPMAN_RECORDER_PINS_H_
#define KESTREL_LIBPMAN_RECORDER_PINS_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "libpman_recorder.h"

namespace kestrel::pman {

struct RecorderPins {
  std::string root;       // <pin_root>
  std::string name;       // <name>
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

// See pman_recorder_name_is_valid.
bool ValidRecorderName(std::string_view name);

// Validates the name (it becomes a directory) and builds the paths.
absl::StatusOr<RecorderPins> RecorderPinsFor(const pman_recorder_options& options);

// Creates the root (0700) if missing, and the recorder's directory (0700)
// unless it exists. Whether an existing one may be used is for the caller to
// judge (InspectRecorder) once it holds the directory's lock.
absl::Status EnsurePinDirectory(const RecorderPins& pins);

// The recorder directory's flock, held by a start while it builds the
// recorder and by whoever judges or removes its pins, so a stop never tears
// down a start halfway and two starts never share a directory. A process
// killed while holding it releases it. Waits up to `timeout_ms` for a holder.
class RecorderDirLock {
 public:
  static absl::StatusOr<RecorderDirLock> Take(const RecorderPins& pins, int timeout_ms);
  RecorderDirLock(RecorderDirLock&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }
  RecorderDirLock& operator=(RecorderDirLock&&) = delete;
  RecorderDirLock(const RecorderDirLock&) = delete;
  ~RecorderDirLock();

 private:
  explicit RecorderDirLock(int fd) : fd_(fd) {}
  int fd_;
};

// Unpins `files` (pins InspectRecorder proved ours), in order, then removes
// the directory when `remove_dir`. Removing what is already gone is not an
// error. Afterwards the default pin root is removed too if that left it
// empty; any other root, and a root holding anything, is left alone.
absl::Status RemoveRecorderPins(const RecorderPins& pins, const std::vector<std::string>& files,
                                bool remove_dir);

}  // namespace kestrel::pman

#endif  // KESTREL_LIBPMAN_RECORDER_PINS_H_
