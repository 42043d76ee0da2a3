#include "recorder_pins.h"

#include <linux/magic.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <cerrno>
#include <string_view>

#include "absl/strings/ascii.h"
#include "absl/strings/str_format.h"
#include "errno_status.h"
#include "pin_dir.h"

namespace kestrel::pman {
namespace {

constexpr size_t kMaxNameLength = 64;
constexpr char kBpffsMount[] = "/sys/fs/bpf";

bool OnBpffs(const std::string& path) {
  struct statfs fs {};
  return statfs(path.c_str(), &fs) == 0 && fs.f_type == BPF_FS_MAGIC;
}

// Machines without systemd may not mount bpffs at all; like bpftool, mount
// it where every tool expects it rather than fail.
absl::Status EnsureBpffsFor(const std::string& root) {
  if (!root.starts_with(std::string(kBpffsMount) + "/") || OnBpffs(kBpffsMount)) {
    return absl::OkStatus();
  }
  if (mount("bpf", kBpffsMount, "bpf", 0, "mode=0700") != 0) {
    return ErrnoStatus(errno, absl::StrFormat("mounting bpffs at %s", kBpffsMount));
  }
  return absl::OkStatus();
}

bool ValidName(std::string_view name) {
  if (name.empty() || name.size() > kMaxNameLength || name == "." || name == "..") return false;
  for (char c : name) {
    if (!absl::ascii_isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.') {
      return false;
    }
  }
  return true;
}

absl::Status MakeDirectory(const std::string& path) {
  if (mkdir(path.c_str(), 0700) != 0 && errno != EEXIST) {
    return ErrnoStatus(errno, absl::StrFormat("creating %s", path));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<RecorderPins> RecorderPinsFor(const pman_recorder_options& options) {
  const std::string root =
      options.pin_root != nullptr ? options.pin_root : PMAN_RECORDER_DEFAULT_PIN_ROOT;
  const std::string name = options.name != nullptr ? options.name : PMAN_RECORDER_DEFAULT_NAME;
  if (root.empty() || root[0] != '/') {
    return absl::InvalidArgumentError(
        absl::StrFormat("pin root \"%s\" must be an absolute path in bpffs", root));
  }
  if (!ValidName(name)) {
    return absl::InvalidArgumentError(
        absl::StrFormat("recorder name \"%s\": use 1 to %u letters, digits, '-', '_' or '.'", name,
                        kMaxNameLength));
  }
  RecorderPins pins;
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

absl::Status CreatePinDirectory(const RecorderPins& pins) {
  const std::string root = pins.dir.substr(0, pins.dir.rfind('/'));
  if (absl::Status s = EnsureBpffsFor(root); !s.ok()) return s;
  if (absl::Status s = MakeDirectory(root); !s.ok()) return s;
  if (!OnBpffs(root)) {
    return absl::FailedPreconditionError(
        absl::StrFormat("pin root %s is not on a BPF filesystem (mount -t bpf bpf DIR)", root));
  }
  if (mkdir(pins.dir.c_str(), 0700) != 0) {
    if (errno == EEXIST) {
      return absl::AlreadyExistsError(absl::StrFormat(
          "a recorder is already pinned at %s (stop it first, or pick another --name)", pins.dir));
    }
    return ErrnoStatus(errno, absl::StrFormat("creating %s", pins.dir));
  }
  return absl::OkStatus();
}

absl::Status RemovePins(const RecorderPins& pins) {
  struct stat st {};
  if (stat(pins.dir.c_str(), &st) != 0) {
    if (errno == ENOENT) {
      return absl::NotFoundError(absl::StrFormat("no recorder is pinned at %s", pins.dir));
    }
    return ErrnoStatus(errno, absl::StrFormat("looking at %s", pins.dir));
  }
  for (const std::string& file : pins.Files()) {
    if (unlink(file.c_str()) != 0 && errno != ENOENT) {
      return ErrnoStatus(errno, absl::StrFormat("unpinning %s", file));
    }
  }
  if (rmdir(pins.dir.c_str()) != 0 && errno != ENOENT) {
    return ErrnoStatus(errno, absl::StrFormat("removing %s", pins.dir));
  }
  return absl::OkStatus();
}

}  // namespace kestrel::pman
