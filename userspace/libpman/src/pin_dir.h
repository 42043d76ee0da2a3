// A capture's maps pinned under one bpffs directory, so another process can
// find and control it. The directory is 0700 and each pin 0600; the
// directory itself is the writer lock (flock) every controller takes.
#ifndef KESTREL_LIBPMAN_PIN_DIR_H_
#define KESTREL_LIBPMAN_PIN_DIR_H_

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "libpman.h"

namespace kestrel::pman {

// Names of the pins inside the directory.
inline constexpr char kPinControl[] = "control";    // the control block's map, either mode
inline constexpr char kPinCounters[] = "counters";  // per-CPU counters
inline constexpr char kPinRings[] = "rings";  // CPU -> BPF ring buffer (an MPSC ring's doorbell)
inline constexpr const char* kPinNames[] = {kPinControl, kPinCounters, kPinRings};
// A folder with every map of the probe, by its name in the object, for a
// controller that loads missing fillers (filler_loader.h) into the capture.
inline constexpr char kPinProbeMaps[] = "maps";

// The pin name of the probe's map `map_name` under kPinProbeMaps: bpffs
// refuses dots in names, which libbpf's internal maps (.bss, .rodata) have.
std::string ProbeMapPinName(std::string map_name);

// Where `kestrel` looks when no directory is given.
inline constexpr char kDefaultPinDir[] = PMAN_DEFAULT_PIN_DIR;

// Opens `dir` for flock, O_CLOEXEC; explains a missing bpffs.
absl::StatusOr<int> OpenPinDirLock(const std::string& dir);

class PinnedMaps {
 public:
  // Creates `dir` (its parent must be on a bpffs) and pins the three maps,
  // and each of `probe_maps` (name, fd) under kPinProbeMaps. Never a prog
  // array: its programs would stay loaded as long as its pin, past a kill.
  // Refuses a directory that holds a running capture or anything else; the
  // pins of a capture whose programs are gone are replaced.
  static absl::StatusOr<std::unique_ptr<PinnedMaps>> Create(
      const std::string& dir, int control_fd, int counters_fd, int rings_fd,
      const std::vector<std::pair<std::string, int>>& probe_maps);
  // Removes the pins and the directory.
  ~PinnedMaps();

  PinnedMaps(const PinnedMaps&) = delete;
  PinnedMaps& operator=(const PinnedMaps&) = delete;

  int lock_fd() const { return lock_fd_; }
  // Whether `dir` held the pins of a capture no program used any more (one
  // killed with SIGKILL), removed to make room.
  bool replaced_stale() const { return replaced_stale_; }
  const std::string& dir() const { return dir_; }

 private:
  explicit PinnedMaps(std::string dir) : dir_(std::move(dir)) {}
  absl::Status Pin(int fd, const std::string& name);

  std::string dir_;
  int lock_fd_ = -1;
  int pinned_ = 0;
  std::vector<std::string> probe_map_pins_;  // names under kPinProbeMaps
  bool replaced_stale_ = false;
};

}  // namespace kestrel::pman

#endif  // KESTREL_LIBPMAN_PIN_DIR_H_
