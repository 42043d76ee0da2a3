#include "recorder_pins.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <string_view>

#include "absl/strings/ascii.h"
#include "absl/strings/str_format.h"
#include "bpffs.h"
#include "errno_status.h"
#include "pin_dir.h"

namespace kestrel::pman {
namespace {

constexpr size_t kMaxNameLength = PMAN_RECORDER_MAX_NAME;

}  // namespace

bool ValidRecorderName(std::string_view name) {
  if (name.empty() || name.size() > kMaxNameLength || name == "." || name == "..") return false;
  for (char c : name) {
    if (!absl::ascii_isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.') {
      return false;
    }
  }
  return true;
}

namespace {

absl::Status MakeDirectory(const std::string& path) {
  if (mkdir(path.c_str(), 0700) != 0 && errno != EEXIST) {
    return ErrnoStatus(errno, absl::StrFormat("creating %s", path));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<RecorderPins> RecorderPinsFor(const pman_recorder_options& options) {
  std::string root =
      options.pin_root != nullptr ? options.pin_root : PMAN_RECORDER_DEFAULT_PIN_ROOT;
  while (root.size() > 1 && root.back() == '/') root.pop_back();
  const std::string name = options.name != nullptr ? options.name : PMAN_RECORDER_DEFAULT_NAME;
  if (root.empty() || root[0] != '/') {
    return absl::InvalidArgumentError(
        absl::StrFormat("pin root \"%s\" must be an absolute path in bpffs", root));
  }
  if (!ValidRecorderName(name)) {
    return absl::InvalidArgumentError(
        absl::StrFormat("recorder name \"%s\": use 1 to %u letters, digits, '-', '_' or '.'", name,
                        kMaxNameLength));
  }
  RecorderPins pins;
  pins.root = root;
  pins.name = name;
  pins.dir = root + "/" + name;
  pins.link = pins.dir + "/link";
  pins.fork_link = pins.dir + "/fork_link";
  pins.exit_link = pins.dir + "/exit_link";
  pins.slots = pins.dir + "/slots";
  pins.heads = pins.dir + "/heads";
  pins.info = pins.dir + "/info";
  pins.counters = pins.dir + "/counters";
  pins.fillers = pins.dir + "/fillers";
  pins.control = pins.dir + "/" + kPinControl;
  return pins;
}

absl::Status EnsurePinDirectory(const RecorderPins& pins) {
  if (absl::Status s = EnsureBpffsFor(pins.root); !s.ok()) return s;
  // Twice: a stop elsewhere may remove the default root, emptied, between
  // our two mkdirs.
  for (int attempt = 0;; ++attempt) {
    if (absl::Status s = MakeDirectory(pins.root); !s.ok()) return s;
    if (!OnBpffs(pins.root)) {
      return absl::FailedPreconditionError(absl::StrFormat(
          "pin root %s is not on a BPF filesystem (mount -t bpf bpf DIR)", pins.root));
    }
    absl::Status made = MakeDirectory(pins.dir);
    if (made.ok() || attempt == 1 || !absl::IsNotFound(made)) return made;
  }
}

absl::StatusOr<RecorderDirLock> RecorderDirLock::Take(const RecorderPins& pins, int timeout_ms) {
  const int fd = open(pins.dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) {
      return absl::NotFoundError(absl::StrFormat("no recorder is pinned at %s", pins.dir));
    }
    return ErrnoStatus(errno, absl::StrFormat("opening %s", pins.dir));
  }
  RecorderDirLock lock(fd);
  constexpr int kPollMs = 20;
  for (int waited = 0; flock(fd, LOCK_EX | LOCK_NB) != 0; waited += kPollMs) {
    if (errno != EWOULDBLOCK && errno != EINTR) {
      return ErrnoStatus(errno, absl::StrFormat("locking %s", pins.dir));
    }
    if (waited >= timeout_ms) {
      return absl::UnavailableError(absl::StrFormat(
          "%s is locked by another process (a recorder start still running?); try again",
          pins.dir));
    }
    usleep(kPollMs * 1000);
  }
  return lock;
}

RecorderDirLock::~RecorderDirLock() {
  if (fd_ >= 0) close(fd_);
}

absl::Status RemoveRecorderPins(const RecorderPins& pins, const std::vector<std::string>& files,
                                bool remove_dir) {
  for (const std::string& file : files) {
    if (unlink(file.c_str()) != 0 && errno != ENOENT) {
      return ErrnoStatus(errno, absl::StrFormat("unpinning %s", file));
    }
  }
  if (!remove_dir) return absl::OkStatus();
  if (rmdir(pins.dir.c_str()) != 0 && errno != ENOENT) {
    return ErrnoStatus(errno, absl::StrFormat("removing %s", pins.dir));
  }
  // rmdir refuses a folder that holds anything, so only an empty default
  // root goes; another recorder or a pinned capture keeps it.
  if (pins.root == PMAN_RECORDER_DEFAULT_PIN_ROOT) rmdir(pins.root.c_str());
  return absl::OkStatus();
}

}  // namespace kestrel::pman
