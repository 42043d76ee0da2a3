#include "bpffs.h"

#include <linux/magic.h>
#include <sys/mount.h>
#include <sys/statfs.h>

#include <cerrno>

#include "absl/strings/str_format.h"
#include "errno_status.h"

namespace kestrel::pman {

bool OnBpffs(const std::string& path) {
  struct statfs fs {};
  return statfs(path.c_str(), &fs) == 0 && fs.f_type == BPF_FS_MAGIC;
}

absl::Status EnsureBpffsFor(const std::string& path) {
  const bool under_mount = path == kBpffsMount || path.starts_with(std::string(kBpffsMount) + "/");
  if (!under_mount || OnBpffs(kBpffsMount)) {
    return absl::OkStatus();
  }
  if (mount("bpf", kBpffsMount, "bpf", 0, "mode=0700") != 0) {
    return ErrnoStatus(errno, absl::StrFormat("mounting bpffs at %s", kBpffsMount));
  }
  return absl::OkStatus();
}

}  // namespace kestrel::pman
