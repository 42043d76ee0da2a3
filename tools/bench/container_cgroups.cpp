#include "bench/container_cgroups.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace kestrel::bench {
namespace {

bool IsDir(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

}  // namespace

absl::StatusOr<ContainerCgroups> ContainerCgroups::Make(int count, bool as_containers) {
  const std::string root = IsDir("/sys/fs/cgroup/cpu") ? "/sys/fs/cgroup/cpu" : "/sys/fs/cgroup";
  ContainerCgroups made;
  made.parent_ = absl::StrCat(root, "/kestrel-bench-", getpid());
  if (mkdir(made.parent_.c_str(), 0755) != 0) {
    return absl::ErrnoToStatus(errno, absl::StrCat("creating the cgroup ", made.parent_));
  }
  for (int i = 0; i < count; ++i) {
    // Ids no runtime hands out: a prefix of its own, then the index.
    const std::string dir = as_containers ? absl::StrFormat("%s/docker-%056x%08x.scope",
                                                            made.parent_, 0xbe4c4e5721ULL, i)
                                          : absl::StrFormat("%s/load-%d", made.parent_, i);
    if (mkdir(dir.c_str(), 0755) != 0) {
      return absl::ErrnoToStatus(errno, absl::StrCat("creating the cgroup ", dir));
    }
    made.dirs_.push_back(dir);
  }
  return made;
}

ContainerCgroups::ContainerCgroups(ContainerCgroups&& other) noexcept
    : parent_(std::move(other.parent_)), dirs_(std::move(other.dirs_)) {
  other.parent_.clear();
  other.dirs_.clear();
}

ContainerCgroups::~ContainerCgroups() {
  for (const std::string& dir : dirs_) rmdir(dir.c_str());
  if (!parent_.empty()) rmdir(parent_.c_str());
}

bool ContainerCgroups::Empty() const {
  for (const std::string& dir : dirs_) {
    const int fd = open((dir + "/cgroup.procs").c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) continue;
    char c;
    const bool some = read(fd, &c, 1) == 1;
    close(fd);
    if (some) return false;
  }
  return true;
}

bool ContainerCgroups::Join(int i) const {
  const int fd = open((dirs_[i] + "/cgroup.procs").c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return false;
  const bool ok = write(fd, "0", 1) == 1;  // 0: the writer itself
  close(fd);
  return ok;
}

}  // namespace kestrel::bench
