#include "settings_control.h"

#include <sys/file.h>

#include <cerrno>

#include "absl/strings/str_format.h"
#include "errno_status.h"
#include "settings_store.h"
#include "shared/syscall_table_x86_64.h"

namespace kestrel::pman {
namespace {

// Holds an exclusive flock for one write; no-op without a lock fd.
class WriterLock {
 public:
  explicit WriterLock(int fd) : fd_(fd) {
    if (fd_ >= 0) {
      while (flock(fd_, LOCK_EX) != 0 && errno == EINTR) {
      }
    }
  }
  ~WriterLock() {
    if (fd_ >= 0) flock(fd_, LOCK_UN);
  }
  WriterLock(const WriterLock&) = delete;
  WriterLock& operator=(const WriterLock&) = delete;

 private:
  int fd_;
};

}  // namespace

absl::Status SettingsControl::CheckWritable() const {
  if (read_only_) {
    return ErrnoStatus(EPERM, "the settings are locked (--lock-settings): nothing was changed");
  }
  return absl::OkStatus();
}

absl::Status SettingsControl::CheckId(uint32_t id) const {
  if (id >= KESTREL_SYSCALL_TABLE_SIZE) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "syscall id %u is out of range: ids go up to %u", id, KESTREL_SYSCALL_TABLE_SIZE - 1));
  }
  return absl::OkStatus();
}

// The change bits first, then the generation: a probe that sees the new
// generation finds the bits already there.
void SettingsControl::Bump(uint32_t what) {
  __atomic_fetch_or(&block_->generation.changed, what, __ATOMIC_RELEASE);
  __atomic_fetch_add(&block_->generation.generation, 1, __ATOMIC_RELEASE);
}

absl::Status SettingsControl::EnforceSyscallSet(const uint8_t* interesting, size_t n) {
  if (absl::Status s = CheckWritable(); !s.ok()) return s;
  if (n > KESTREL_SYSCALL_TABLE_SIZE || (n > 0 && interesting == nullptr)) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "syscall set of %u entries: the table holds %u", n, KESTREL_SYSCALL_TABLE_SIZE));
  }
  WriterLock lock(lock_fd_);
  for (size_t id = 0; id < KESTREL_SYSCALL_TABLE_SIZE; ++id) {
    __atomic_store_n(&block_->interesting_syscalls[id],
                     static_cast<uint8_t>(id < n && interesting[id] != 0), __ATOMIC_RELAXED);
  }
  Bump(KESTREL_CHANGED_SYSCALLS);
  return absl::OkStatus();
}

absl::Status SettingsControl::MarkSyscall(uint32_t id, bool interesting) {
  if (absl::Status s = CheckWritable(); !s.ok()) return s;
  if (absl::Status s = CheckId(id); !s.ok()) return s;
  WriterLock lock(lock_fd_);
  __atomic_store_n(&block_->interesting_syscalls[id], static_cast<uint8_t>(interesting),
                   __ATOMIC_RELEASE);
  Bump(KESTREL_CHANGED_SYSCALLS);
  return absl::OkStatus();
}

absl::Status SettingsControl::SetDropClass(uint32_t id, uint32_t drop_class) {
  if (absl::Status s = CheckWritable(); !s.ok()) return s;
  if (absl::Status s = CheckId(id); !s.ok()) return s;
  if (drop_class > KESTREL_DROP_ALWAYS) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "drop class %u is not one of sampled (0), never (1), always (2)", drop_class));
  }
  WriterLock lock(lock_fd_);
  __atomic_store_n(&block_->syscall_drop_class[id], static_cast<uint8_t>(drop_class),
                   __ATOMIC_RELEASE);
  Bump(KESTREL_CHANGED_DROP_CLASSES);
  return absl::OkStatus();
}

absl::Status SettingsControl::SetOmittedParams(uint32_t omitted) {
  if (absl::Status s = CheckWritable(); !s.ok()) return s;
  if ((omitted & ~KESTREL_OMIT_ALL) != 0) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "omitted parameters 0x%x: only 0x%x (the path of opened files) can be omitted", omitted,
        KESTREL_OMIT_ALL));
  }
  WriterLock lock(lock_fd_);
  __atomic_store_n(&block_->omitted_params, omitted, __ATOMIC_RELEASE);
  Bump(KESTREL_CHANGED_OMITTED);
  return absl::OkStatus();
}

absl::Status SettingsControl::UpdateSettings(const kestrel_capture_settings& settings) {
  return EditSettings([&](kestrel_capture_settings& s) {
    s = settings;
    return absl::OkStatus();
  });
}

absl::Status SettingsControl::EditSettings(
    const std::function<absl::Status(kestrel_capture_settings&)>& edit) {
  if (absl::Status s = CheckWritable(); !s.ok()) return s;
  WriterLock lock(lock_fd_);
  kestrel_capture_settings settings = ReadSettings(&block_->settings_store);
  if (absl::Status s = edit(settings); !s.ok()) return s;
  if (absl::Status s = ValidateSettings(settings); !s.ok()) return s;
  PublishSettings(&block_->settings_store, settings);
  Bump(KESTREL_CHANGED_SETTINGS);
  return absl::OkStatus();
}

kestrel_capture_settings SettingsControl::GetSettings() const {
  return ReadSettings(&block_->settings_store);
}

bool SettingsControl::IsInteresting(uint32_t id) const {
  return id < KESTREL_SYSCALL_TABLE_SIZE &&
         __atomic_load_n(&block_->interesting_syscalls[id], __ATOMIC_RELAXED) != 0;
}

uint8_t SettingsControl::DropClass(uint32_t id) const {
  return id < KESTREL_SYSCALL_TABLE_SIZE
             ? __atomic_load_n(&block_->syscall_drop_class[id], __ATOMIC_RELAXED)
             : 0;
}

uint32_t SettingsControl::OmittedParams() const {
  return __atomic_load_n(&block_->omitted_params, __ATOMIC_RELAXED);
}

uint64_t SettingsControl::Generation() const {
  return __atomic_load_n(&block_->generation.generation, __ATOMIC_ACQUIRE);
}

}  // namespace kestrel::pman
