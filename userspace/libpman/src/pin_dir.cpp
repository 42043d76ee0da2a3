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
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "bpffs.h"
#include "errno_status.h"
#include "shared/control_block.h"

namespace kestrel::pman {
namespace {

constexpr const char* kPinNames[] = {kPinControl, kPinCounters, kPinRings};

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

// Whether a loaded BPF program uses the map with id `map_id`.
absl::StatusOr<bool> MapUsedByAProgram(uint32_t map_id) {
  for (uint32_t id = 0; bpf_prog_get_next_id(id, &id) == 0;) {
    const int fd = bpf_prog_get_fd_by_id(id);
    if (fd < 0) continue;  // freed since: it used nothing any more
    std::vector<uint32_t> map_ids(64);
    bpf_prog_info info{};
    info.nr_map_ids = static_cast<uint32_t>(map_ids.size());
    info.map_ids = reinterpret_cast<uint64_t>(map_ids.data());
    uint32_t len = sizeof info;
    const int rc = bpf_obj_get_info_by_fd(fd, &info, &len);
    close(fd);
    if (rc != 0) return ErrnoStatus(errno, absl::StrFormat("reading BPF program %u", id));
    const uint32_t n = std::min<uint32_t>(info.nr_map_ids, map_ids.size());
    if (std::find(map_ids.begin(), map_ids.begin() + n, map_id) != map_ids.begin() + n) {
      return true;
    }
  }
  return false;
}

// True when `dir` holds a capture's pins (nothing else) that no program
// uses any more: what a capture killed with SIGKILL leaves behind.
absl::StatusOr<bool> IsStaleCapture(const std::string& dir) {
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) return false;
  bool only_ours = true;
  while (dirent* e = readdir(d)) {
    const std::string_view name = e->d_name;
    if (name == "." || name == "..") continue;
    only_ours = only_ours &&
                std::find(std::begin(kPinNames), std::end(kPinNames), name) != std::end(kPinNames);
  }
  closedir(d);
  if (!only_ours) return false;
  const int fd = bpf_obj_get(absl::StrCat(dir, "/", kPinControl).c_str());
  if (fd < 0) return false;
  bpf_map_info info{};
  uint32_t len = sizeof info;
  const int rc = bpf_obj_get_info_by_fd(fd, &info, &len);
  close(fd);
  if (rc != 0 || info.value_size != sizeof(kestrel_control_block)) return false;
  // A killed capture's programs are freed a moment after its descriptors
  // are closed: look again for a while before calling it live.
  constexpr int kLooks = 20;
  for (int i = 0; i < kLooks; ++i) {
    absl::StatusOr<bool> used = MapUsedByAProgram(info.id);
    if (!used.ok()) return used.status();
    if (!*used) return true;
    usleep(50'000);
  }
  return false;
}

void RemovePins(const std::string& dir) {
  for (const char* name : kPinNames) unlink(absl::StrCat(dir, "/", name).c_str());
  rmdir(dir.c_str());
}

}  // namespace

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

absl::StatusOr<std::unique_ptr<PinnedMaps>> PinnedMaps::Create(const std::string& dir,
                                                               int control_fd, int counters_fd,
                                                               int rings_fd) {
  if (absl::Status s = RequireBpffs(Parent(dir)); !s.ok()) return s;
  bool replaced_stale = false;
  if (mkdir(dir.c_str(), 0700) != 0) {
    if (errno != EEXIST) return ErrnoStatus(errno, absl::StrFormat("creating %s", dir));
    absl::StatusOr<bool> stale = IsStaleCapture(dir);
    if (!stale.ok()) return stale.status();
    if (!*stale) {
      return absl::AlreadyExistsError(
          absl::StrFormat("%s already exists: a running capture is pinned there (stop it), or "
                          "something that is not a Kestrel capture's pins (remove it)",
                          dir));
    }
    RemovePins(dir);
    if (mkdir(dir.c_str(), 0700) != 0) {
      return ErrnoStatus(errno, absl::StrFormat("creating %s", dir));
    }
    replaced_stale = true;
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
  return pins;
}

absl::Status PinnedMaps::Pin(int fd, const char* name) {
  const std::string path = absl::StrCat(dir_, "/", name);
  if (bpf_obj_pin(fd, path.c_str()) != 0) {
    return ErrnoStatus(errno, absl::StrFormat("pinning %s", path));
  }
  ++pinned_;
  // Whoever can open a pin can blind the sensor: owner only.
  if (chmod(path.c_str(), 0600) != 0) return ErrnoStatus(errno, absl::StrCat("chmod 0600 ", path));
  return absl::OkStatus();
}

PinnedMaps::~PinnedMaps() {
  for (int i = 0; i < pinned_; ++i) unlink(absl::StrCat(dir_, "/", kPinNames[i]).c_str());
  if (lock_fd_ >= 0) close(lock_fd_);
  rmdir(dir_.c_str());
}

}  // namespace kestrel::pman
