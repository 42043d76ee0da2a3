// A capture running in another process, reached through its pins: its
// control block (in .bss or in the array, whichever mode it was loaded in)
// is mmapped here, so changes are plain stores the probe sees on its next
// syscall, with no reload and no bpf() call per change.
#ifndef KESTREL_LIBPMAN_PINNED_CAPTURE_H_
#define KESTREL_LIBPMAN_PINNED_CAPTURE_H_

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "settings_control.h"
#include "shared/control_block.h"

namespace kestrel::pman {

class PinnedCapture {
 public:
  // Opens the capture pinned at `dir`. A capture whose settings were locked
  // (frozen) opens read-only: reads work, writes are refused.
  static absl::StatusOr<std::unique_ptr<PinnedCapture>> Open(const std::string& dir);
  ~PinnedCapture();

  PinnedCapture(const PinnedCapture&) = delete;
  PinnedCapture& operator=(const PinnedCapture&) = delete;

  SettingsControl& control() { return *control_; }
  // As SettingsControl::MarkSyscall, after loading into the capture the
  // filler the syscall's event needs, if it lacks it.
  absl::Status MarkSyscall(uint32_t id, bool interesting);
  bool read_only() const { return read_only_; }
  kestrel_settings_storage storage() const { return storage_; }

 private:
  PinnedCapture() = default;
  absl::Status MapControl(const std::string& dir);
  absl::Status LoadFillersFor(const std::vector<uint32_t>& ids);

  std::string dir_;
  int lock_fd_ = -1;
  int map_fd_ = -1;
  kestrel_settings_storage storage_ = KESTREL_STORAGE_BSS;
  void* mem_ = nullptr;
  bool read_only_ = false;
  std::optional<SettingsControl> control_;
};

}  // namespace kestrel::pman

#endif  // KESTREL_LIBPMAN_PINNED_CAPTURE_H_
