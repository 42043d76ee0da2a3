#include "pinned_capture.h"

#include <bpf/bpf.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <string_view>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "bss_view.h"
#include "errno_status.h"
#include "pin_dir.h"

namespace kestrel::pman {

absl::StatusOr<std::unique_ptr<PinnedCapture>> PinnedCapture::Open(const std::string& dir) {
  std::unique_ptr<PinnedCapture> capture(new PinnedCapture());
  absl::StatusOr<int> lock = OpenPinDirLock(dir);
  if (!lock.ok()) return lock.status();
  capture->lock_fd_ = *lock;
  if (absl::Status s = capture->MapBss(dir); !s.ok()) return s;
  capture->control_.emplace(ViewOfBss(capture->bss_), capture->lock_fd_);
  if (capture->read_only_) capture->control_->MakeReadOnly();
  return capture;
}

absl::Status PinnedCapture::MapBss(const std::string& dir) {
  const std::string path = absl::StrCat(dir, "/", kPinBss);
  // BPF object fds are always close-on-exec.
  bss_fd_ = bpf_obj_get(path.c_str());
  if (bss_fd_ < 0) return ErrnoStatus(errno, absl::StrFormat("opening the pin %s", path));
  bpf_map_info info{};
  uint32_t len = sizeof(info);
  if (bpf_obj_get_info_by_fd(bss_fd_, &info, &len) != 0) {
    return ErrnoStatus(errno, absl::StrFormat("reading the map info of %s", path));
  }
  // A pin from another build of the probe would be misread: refuse it.
  if (info.type != BPF_MAP_TYPE_ARRAY || !(info.map_flags & BPF_F_MMAPABLE) ||
      info.value_size != BssValueSize() || !std::string_view(info.name).ends_with(".bss")) {
    return absl::FailedPreconditionError(absl::StrFormat(
        "%s is not the .bss of this build's probe (map \"%s\", %u-byte value, this build "
        "expects %u)",
        path, info.name, info.value_size, BssValueSize()));
  }
  void* mem = mmap(nullptr, BssMmapSize(), PROT_READ | PROT_WRITE, MAP_SHARED, bss_fd_, 0);
  if (mem == MAP_FAILED && errno == EPERM) {
    // Frozen by --lock-settings: the kernel grants read-only mappings only.
    read_only_ = true;
    mem = mmap(nullptr, BssMmapSize(), PROT_READ, MAP_SHARED, bss_fd_, 0);
  }
  if (mem == MAP_FAILED) return ErrnoStatus(errno, absl::StrFormat("mapping %s", path));
  bss_ = mem;
  return absl::OkStatus();
}

PinnedCapture::~PinnedCapture() {
  if (bss_ != nullptr) munmap(bss_, BssMmapSize());
  if (bss_fd_ >= 0) close(bss_fd_);
  if (lock_fd_ >= 0) close(lock_fd_);
}

}  // namespace kestrel::pman
