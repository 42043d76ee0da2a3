// Every write to the probe's shared memory goes through SettingsControl, so
// each one is validated, serialized against writers in other processes, and
// followed by a generation bump the probe reports downstream. It works the
// same on the loading process's own mapping and on a pinned capture mapped
// by another process.
#ifndef KESTREL_LIBPMAN_SETTINGS_CONTROL_H_
#define KESTREL_LIBPMAN_SETTINGS_CONTROL_H_

#include <cstddef>
#include <cstdint>
#include <functional>

#include "absl/status/status.h"
#include "settings_rules.h"
#include "shared/capture_settings.h"
#include "shared/control_block.h"

namespace kestrel::pman {

class SettingsControl {
 public:
  // `lock_fd` is flock()ed around each write when >= 0 (the pin directory,
  // shared by every process that controls the capture).
  // `block` is a mapping of the probe's control block, in either storage
  // mode.
  SettingsControl(kestrel_control_block* block, int lock_fd) : block_(block), lock_fd_(lock_fd) {}

  absl::Status EnforceSyscallSet(const uint8_t* interesting, size_t n);
  absl::Status MarkSyscall(uint32_t id, bool interesting);
  absl::Status SetDropClass(uint32_t id, uint32_t drop_class);
  // `omitted` is a set of KESTREL_OMIT_* bits (shared/control_block.h).
  absl::Status SetOmittedParams(uint32_t omitted);
  absl::Status UpdateSettings(const kestrel_capture_settings& settings);
  // Read, edit and publish under one hold of the writer lock, so concurrent
  // read-modify-write controllers never lose each other's changes. Nothing
  // is published when `edit` fails or its result is invalid.
  absl::Status EditSettings(const std::function<absl::Status(kestrel_capture_settings&)>& edit);

  kestrel_capture_settings GetSettings() const;
  bool IsInteresting(uint32_t id) const;
  uint8_t DropClass(uint32_t id) const;
  uint32_t OmittedParams() const;
  uint64_t Generation() const;

  // From here on every write is refused: the mapping is read-only.
  void MakeReadOnly() { read_only_ = true; }
  void set_lock_fd(int fd) { lock_fd_ = fd; }

 private:
  absl::Status CheckWritable() const;
  absl::Status CheckId(uint32_t id) const;
  void Bump(uint32_t what);

  kestrel_control_block* block_;
  int lock_fd_;
  bool read_only_ = false;
};

}  // namespace kestrel::pman

#endif  // KESTREL_LIBPMAN_SETTINGS_CONTROL_H_
