#include "pinned_capture.h"

#include <bpf/bpf.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <optional>
#include <string_view>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "errno_status.h"
#include "filler_loader.h"
#include "live_probe.h"
#include "pin_dir.h"
#include "probe_object.h"

namespace kestrel::pman {

absl::StatusOr<std::unique_ptr<PinnedCapture>> PinnedCapture::Open(const std::string& dir) {
  std::unique_ptr<PinnedCapture> capture(new PinnedCapture());
  capture->dir_ = dir;
  absl::StatusOr<int> lock = OpenPinDirLock(dir);
  if (!lock.ok()) return lock.status();
  capture->lock_fd_ = *lock;
  if (absl::Status s = capture->MapControl(dir); !s.ok()) return s;
  // A killed capture's pins take stores that nothing reads: say so.
  if (absl::Status s = RequireLiveProbe(capture->map_fd_, dir.c_str()); !s.ok()) return s;
  capture->control_.emplace(static_cast<kestrel_control_block*>(capture->mem_), capture->lock_fd_);
  if (capture->read_only_) capture->control_->MakeReadOnly();
  return capture;
}

namespace {

// The storage mode of a pinned control map, or nothing when it is not this
// build's: a pin from another build of the probe would be misread.
std::optional<kestrel_settings_storage> StorageOfPin(const bpf_map_info& info) {
  if (info.type != BPF_MAP_TYPE_ARRAY || !(info.map_flags & BPF_F_MMAPABLE) ||
      info.max_entries != 1) {
    return std::nullopt;
  }
  for (kestrel_settings_storage storage : {KESTREL_STORAGE_BSS, KESTREL_STORAGE_ARRAY}) {
    const bool named = storage == KESTREL_STORAGE_BSS
                           ? std::string_view(info.name).ends_with(".bss")
                           : std::string_view(info.name) == KESTREL_CONTROL_MAP_NAME;
    if (named && info.value_size == ControlMapValueSize(storage)) return storage;
  }
  return std::nullopt;
}

}  // namespace

absl::Status PinnedCapture::MapControl(const std::string& dir) {
  const std::string path = absl::StrCat(dir, "/", kPinControl);
  // BPF object fds are always close-on-exec.
  map_fd_ = bpf_obj_get(path.c_str());
  if (map_fd_ < 0) return ErrnoStatus(errno, absl::StrFormat("opening the pin %s", path));
  bpf_map_info info{};
  uint32_t len = sizeof(info);
  if (bpf_obj_get_info_by_fd(map_fd_, &info, &len) != 0) {
    return ErrnoStatus(errno, absl::StrFormat("reading the map info of %s", path));
  }
  const std::optional<kestrel_settings_storage> storage = StorageOfPin(info);
  if (!storage) {
    return absl::FailedPreconditionError(absl::StrFormat(
        "%s is not the control block of this build's probe (map \"%s\", %u-byte value, this "
        "build expects \"*.bss\" or \"%s\" of %u bytes)",
        path, info.name, info.value_size, KESTREL_CONTROL_MAP_NAME,
        ControlMapValueSize(KESTREL_STORAGE_ARRAY)));
  }
  storage_ = *storage;
  const size_t size = ControlMmapSize(storage_);
  void* mem = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, map_fd_, 0);
  if (mem == MAP_FAILED && errno == EPERM) {
    // Frozen by --lock-settings: the kernel grants read-only mappings only.
    read_only_ = true;
    mem = mmap(nullptr, size, PROT_READ, MAP_SHARED, map_fd_, 0);
  }
  if (mem == MAP_FAILED) return ErrnoStatus(errno, absl::StrFormat("mapping %s", path));
  mem_ = mem;
  return absl::OkStatus();
}

absl::Status PinnedCapture::LoadFillersFor(const std::vector<uint32_t>& ids) {
  const std::string maps = absl::StrCat(dir_, "/", kPinProbeMaps);
  // No probe maps pinned: a flight recorder, which loads every filler at
  // start (recorder_loader.cpp). Nothing to load.
  if (access(maps.c_str(), F_OK) != 0 && errno == ENOENT) return absl::OkStatus();
  FillerLoadTarget target;
  target.storage = storage_;
  // The prog array, named as in driver/modern_bpf/helpers/base/maps.h, is
  // not pinned (pin_dir.h): it is reached through the live probe.
  absl::StatusOr<int> prog_array = OpenLiveProgArray(map_fd_, "custom_fillers");
  if (!prog_array.ok()) {
    return absl::Status(prog_array.status().code(),
                        absl::StrCat("loading the fillers of newly enabled syscalls into the "
                                     "capture pinned at ",
                                     dir_, ": ", prog_array.status().message()));
  }
  target.prog_array_fd = *prog_array;
  target.map_fd = [&maps](const std::string& name) -> absl::StatusOr<int> {
    const std::string path = absl::StrCat(maps, "/", ProbeMapPinName(name));
    const int fd = bpf_obj_get(path.c_str());
    if (fd < 0 && errno == ENOENT) {
      return absl::NotFoundError(absl::StrFormat("no pin %s", path));
    }
    if (fd < 0) return ErrnoStatus(errno, absl::StrFormat("opening the pin %s", path));
    return fd;
  };
  absl::StatusOr<std::vector<ProgramLoadStats>> loaded = LoadMissingFillers(target, ids);
  close(target.prog_array_fd);
  return loaded.status();
}

absl::Status PinnedCapture::MarkSyscall(uint32_t id, bool interesting) {
  // A locked capture refuses the change anyway: load nothing for it.
  if (interesting && !read_only_) {
    if (absl::Status s = LoadFillersFor({id}); !s.ok()) return s;
  }
  return control_->MarkSyscall(id, interesting);
}

PinnedCapture::~PinnedCapture() {
  if (mem_ != nullptr) munmap(mem_, ControlMmapSize(storage_));
  if (map_fd_ >= 0) close(map_fd_);
  if (lock_fd_ >= 0) close(lock_fd_);
}

}  // namespace kestrel::pman
