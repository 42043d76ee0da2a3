#include "pin_dir.h"

#include <bpf/bpf.h>
#include <dirent.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <string_view>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "bpffs.h"
#include "errno_status.h"
#include "pin_dir_occupant.h"

namespace kestrel::pman {
namespace {

std::string Parent(const std::string& dir) {
  const size_t slash = dir.find_last_of('/');
  return slash == std::string::npos || slash == 0 ? std::string("/") : dir.substr(0, slash);
}

absl::Status RequireBpffs(const std::string& path) {
  if (absl::Status s = EnsureBpffsFor(path); !s.ok()) return s;
  struct statfs fs {};
  if (statfs(path.c_str(), &fs) != 0) return ErrnoStatus(errno, absl::StrCat("reading ", path));
  if (fs.f_type != BPF_FS_MAGIC) {
    return absl::FailedPreconditionError(absl::StrFormat(
        "%s is not on a bpffs: mount one with `mount -t bpf bpf /sys/fs/bpf`", path));
  }
  return absl::OkStatus();
}

void RemoveProbeMapPins(const std::string& dir) {
  const std::string maps = absl::StrCat(dir, "/", kPinProbeMaps);
  if (DIR* d = opendir(maps.c_str())) {
    while (dirent* e = readdir(d)) {
      const std::string_view name = e->d_name;
      if (name != "." && name != "..") unlink(absl::StrCat(maps, "/", std::string(name)).c_str());
    }
    closedir(d);
  }
  rmdir(maps.c_str());
}

void RemovePins(const std::string& dir) {
  for (const char* name : kPinNames) unlink(absl::StrCat(dir, "/", name).c_str());
  RemoveProbeMapPins(dir);
  rmdir(dir.c_str());
}

}  // namespace

std::string ProbeMapPinName(std::string map_name) {
  std::replace(map_name.begin(), map_name.end(), '.', '_');
  return map_name;
}

absl::StatusOr<int> OpenPinDirLock(const std::string& dir) {
  const int fd = open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0 && errno == ENOENT) {
    return ErrnoStatus(ENOENT, absl::StrFormat("no capture is pinned at %s (start one with "
                                               "`kestrel capture --pin`)",
                                               dir));
  }
  if (fd < 0) return ErrnoStatus(errno, absl::StrFormat("opening the capture pinned at %s", dir));
  return fd;
}

absl::StatusOr<std::unique_ptr<PinnedMaps>> PinnedMaps::Create(
    const std::string& dir, int control_fd, int counters_fd, int rings_fd,
    const std::vector<std::pair<std::string, int>>& probe_maps) {
  if (absl::Status s = RequireBpffs(Parent(dir)); !s.ok()) return s;
  bool replaced_stale = false;
  if (mkdir(dir.c_str(), 0700) != 0) {
    if (errno != EEXIST) return ErrnoStatus(errno, absl::StrFormat("creating %s", dir));
    absl::StatusOr<PinDirOccupant> occupant = ClassifyPinDir(dir);
    if (!occupant.ok()) return occupant.status();
    if (*occupant != PinDirOccupant::kEmpty && *occupant != PinDirOccupant::kDeadCapture) {
      return absl::AlreadyExistsError(PinDirRefusal(dir, *occupant));
    }
    // Made anew, even when empty: a folder made here is 0700.
    RemovePins(dir);
    if (mkdir(dir.c_str(), 0700) != 0) {
      return ErrnoStatus(errno, absl::StrFormat("creating %s", dir));
    }
    replaced_stale = *occupant == PinDirOccupant::kDeadCapture;
  }
  std::unique_ptr<PinnedMaps> pins(new PinnedMaps(dir));
  pins->replaced_stale_ = replaced_stale;
  absl::StatusOr<int> lock = OpenPinDirLock(dir);
  if (!lock.ok()) return lock.status();
  pins->lock_fd_ = *lock;
  for (const auto& [fd, name] :
       {std::pair{control_fd, kPinControl}, std::pair{counters_fd, kPinCounters},
        std::pair{rings_fd, kPinRings}}) {
    if (absl::Status s = pins->Pin(fd, name); !s.ok()) return s;
  }
  if (mkdir(absl::StrCat(dir, "/", kPinProbeMaps).c_str(), 0700) != 0) {
    return ErrnoStatus(errno, absl::StrFormat("creating %s/%s", dir, kPinProbeMaps));
  }
  for (const auto& [name, fd] : probe_maps) {
    const std::string pin = absl::StrCat(kPinProbeMaps, "/", ProbeMapPinName(name));
    if (absl::Status s = pins->Pin(fd, pin); !s.ok()) return s;
  }
  return pins;
}

absl::Status PinnedMaps::Pin(int fd, const std::string& name) {
  const std::string path = absl::StrCat(dir_, "/", name);
  if (bpf_obj_pin(fd, path.c_str()) != 0) {
    return ErrnoStatus(errno, absl::StrFormat("pinning %s", path));
  }
  // Counted as soon as it exists, so that the destructor removes it.
  if (const size_t slash = name.find('/'); slash != std::string::npos) {
    probe_map_pins_.push_back(name.substr(slash + 1));
  } else {
    ++pinned_;
  }
  // Whoever can open a pin can blind the sensor: owner only.
  if (chmod(path.c_str(), 0600) != 0) return ErrnoStatus(errno, absl::StrCat("chmod 0600 ", path));
  return absl::OkStatus();
}

PinnedMaps::~PinnedMaps() {
  for (int i = 0; i < pinned_; ++i) unlink(absl::StrCat(dir_, "/", kPinNames[i]).c_str());
  const std::string maps = absl::StrCat(dir_, "/", kPinProbeMaps);
  for (const std::string& name : probe_map_pins_) unlink(absl::StrCat(maps, "/", name).c_str());
  rmdir(maps.c_str());
  if (lock_fd_ >= 0) close(lock_fd_);
  rmdir(dir_.c_str());
}

}  // namespace kestrel::pman
