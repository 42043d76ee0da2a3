#include "kestrel/common/cgroup_id.h"

#include <fcntl.h>
#include <linux/magic.h>
#include <sys/vfs.h>

#include <cerrno>
#include <cstring>
#include <fstream>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"

namespace kestrel::cli {

std::string Cgroup2Mount() {
  std::ifstream mounts("/proc/self/mounts");
  std::string device, dir, type, rest;
  while (mounts >> device >> dir >> type && std::getline(mounts, rest)) {
    if (type == "cgroup2") return dir;
  }
  return "/sys/fs/cgroup";
}

absl::StatusOr<uint64_t> CgroupIdOf(const std::string& path) {
  const std::string full = !path.empty() && path[0] == '/' ? path : Cgroup2Mount() + "/" + path;
  struct statfs fs {};
  if (statfs(full.c_str(), &fs) != 0) {
    return absl::NotFoundError(absl::StrFormat("cgroup %s: %s", full, std::strerror(errno)));
  }
  if (fs.f_type != CGROUP2_SUPER_MAGIC) {
    return absl::InvalidArgumentError(absl::StrFormat("%s is not in a cgroup v2 hierarchy", full));
  }
  // The kernel's cgroup id is the id of the directory's file handle.
  struct {
    file_handle handle;
    uint64_t id;
  } fh{};
  fh.handle.handle_bytes = sizeof(fh.id);
  int mount_id = 0;
  if (name_to_handle_at(AT_FDCWD, full.c_str(), &fh.handle, &mount_id, 0) != 0) {
    return absl::InvalidArgumentError(absl::StrFormat("cgroup %s: %s", full, std::strerror(errno)));
  }
  uint64_t id = 0;
  std::memcpy(&id, fh.handle.f_handle, sizeof(id));
  return id;
}

}  // namespace kestrel::cli
