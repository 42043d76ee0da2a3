#include "proc_fds.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <charconv>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace kestrel::engine {
namespace {

struct AnonKind {
  std::string_view link;
  FdType type;
};

// anon_inode names as the kernel gives them (some with brackets, some not).
constexpr AnonKind kAnonKinds[] = {
    {"anon_inode:[eventfd]", FdType::kEvent},
    {"anon_inode:[signalfd]", FdType::kSignalfd},
    {"anon_inode:[eventpoll]", FdType::kEventpoll},
    {"anon_inode:inotify", FdType::kInotify},
    {"anon_inode:[timerfd]", FdType::kTimerfd},
    {"anon_inode:[pidfd]", FdType::kPidfd},
    {"anon_inode:[userfaultfd]", FdType::kUserfaultfd},
    {"anon_inode:[io_uring]", FdType::kIoUring},
};

// "socket:[123]" -> 123.
std::optional<uint64_t> BracketedInode(std::string_view link, std::string_view prefix) {
  if (!link.starts_with(prefix) || !link.ends_with("]")) return std::nullopt;
  uint64_t ino = 0;
  const std::string_view digits = link.substr(prefix.size(), link.size() - prefix.size() - 1);
  if (!absl::SimpleAtoi(absl::string_view(digits.data(), digits.size()), &ino)) return std::nullopt;
  return ino;
}

// The "flags:" line of /proc/PID/fdinfo/N (octal O_* flags, O_CLOEXEC
// included).
uint32_t FdinfoFlags(const std::string& path) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  char buf[256];
  const ssize_t n = read(fd, buf, sizeof(buf) - 1);
  close(fd);
  if (n <= 0) return 0;
  for (absl::string_view line :
       absl::StrSplit(absl::string_view(buf, static_cast<size_t>(n)), '\n')) {
    if (!absl::ConsumePrefix(&line, "flags:")) continue;
    while (!line.empty() && (line.front() == '\t' || line.front() == ' ')) line.remove_prefix(1);
    uint32_t flags = 0;
    std::from_chars(line.data(), line.data() + line.size(), flags, 8);
    return flags;
  }
  return 0;
}

}  // namespace

FdInfo FdFromProcLink(int64_t fd, std::string_view link, const SocketsByInode* sockets) {
  FdInfo info;
  if (std::optional<uint64_t> ino = BracketedInode(link, "socket:[")) {
    if (sockets != nullptr) {
      if (auto it = sockets->find(*ino); it != sockets->end()) info = it->second;
    }
    if (info.family == 0) info.name = std::string(link);  // not in the tables (netlink ...)
    info.ino = *ino;
  } else if (std::optional<uint64_t> pipe = BracketedInode(link, "pipe:[")) {
    info.type = FdType::kPipe;
    info.name = std::string(link);
    info.ino = *pipe;
  } else if (link.starts_with("/memfd:")) {
    info.type = FdType::kMemfd;
    std::string_view name = link.substr(1);
    if (name.ends_with(" (deleted)")) name.remove_suffix(10);
    info.name = std::string(name);
  } else if (!link.empty() && link.front() == '/') {
    info.type = FdType::kFile;
    info.name = std::string(link);
  } else {
    info.name = std::string(link);
    for (const AnonKind& kind : kAnonKinds) {
      if (link == kind.link) info.type = kind.type;
    }
    if (link.starts_with("anon_inode:bpf")) info.type = FdType::kBpf;
  }
  info.fd = fd;
  info.nameraw = info.name;
  return info;
}

std::shared_ptr<FdTable> ReadProcFds(const std::string& proc_root, uint32_t tgid,
                                     const SocketsByInode* sockets) {
  auto table = std::make_shared<FdTable>();
  const std::string dir = absl::StrCat(proc_root, "/", tgid, "/fd");
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) return table;
  const std::string fdinfo = absl::StrCat(proc_root, "/", tgid, "/fdinfo/");
  while (const dirent* e = readdir(d)) {
    int64_t fd = 0;
    if (!absl::SimpleAtoi(e->d_name, &fd)) continue;
    char target[4096];
    const std::string link = absl::StrCat(dir, "/", e->d_name);
    const ssize_t n = readlink(link.c_str(), target, sizeof(target));
    if (n <= 0) continue;  // closed meanwhile
    FdInfo info = FdFromProcLink(fd, std::string_view(target, static_cast<size_t>(n)), sockets);
    if (info.type == FdType::kFile) {
      struct stat st {};
      if (stat(link.c_str(), &st) == 0) {
        if (S_ISDIR(st.st_mode)) info.type = FdType::kDirectory;
        if (S_ISFIFO(st.st_mode)) info.type = FdType::kPipe;
        info.dev = st.st_dev;
        info.ino = st.st_ino;
      }
    }
    info.open_flags = FdinfoFlags(fdinfo + e->d_name);
    table->Set(std::move(info));
  }
  closedir(d);
  return table;
}

}  // namespace kestrel::engine
