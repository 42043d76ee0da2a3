// Descriptor state from the records of the syscalls that create, copy,
// change and close descriptors. Only a successful call changes anything.
#include <fcntl.h>
#include <linux/close_range.h>
#include <netinet/in.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/sysmacros.h>

#include <cstdint>
#include <optional>
#include <string>

#include "absl/strings/str_cat.h"
#include "fd_table.h"
#include "path_resolution.h"
#include "shared/event_schema.h"
#include "state_updates.h"

namespace kestrel::engine {
namespace {

// The probe records the kernel's own device number (major << 20 | minor);
// the table keeps the one stat(2) and /proc give (makedev's), as the seed
// fills it.
uint64_t UserDev(uint64_t kernel_dev) {
  const auto major = static_cast<unsigned>(kernel_dev >> 20);
  const auto minor = static_cast<unsigned>(kernel_dev & 0xFFFFF);
  return makedev(major, minor);
}

std::optional<int64_t> NewFd(const DecodedEvent& e) {
  std::optional<int64_t> fd = e.Return();
  if (!fd || *fd < 0) return std::nullopt;
  return fd;
}

// The directory a relative path of an *at call starts from.
std::string_view BaseDirectory(const ThreadInfo& t, const DecodedEvent& e) {
  std::optional<int64_t> dirfd = e.Int(KnownParam::kDirfd);
  if (!dirfd || *dirfd == AT_FDCWD) return t.cwd;
  const FdInfo* dir = t.fds->Find(*dirfd);
  return dir ? std::string_view(dir->name) : std::string_view();
}

// open, openat, openat2, creat, open_by_handle_at. This runs on every open:
// parameters are read in place and the entry is filled where it lives.
void OpenFile(ThreadInfo& t, const DecodedEvent& e, OtherThreads&) {
  std::optional<int64_t> fd = NewFd(e);
  if (!fd) return;
  // Falco's `name` is the caller's string; `path` is what the kernel
  // resolved (the only one events recorded before the rename carry).
  const std::string_view caller = e.StringView(KnownParam::kName).value_or("");
  const std::string_view kernel = e.StringView(KnownParam::kPath).value_or("");
  // A relative name resolves against the cwd or its dirfd's entry: resolve
  // it before adding the new entry, which may move the others.
  const bool relative = !caller.empty() && caller.front() != '/';
  std::string resolved;
  if (relative) ResolvePathInto(resolved, BaseDirectory(t, e), caller);
  FdInfo& info = t.fds->Reset(*fd);
  info.type = FdType::kFile;
  if (relative) {
    info.name = std::move(resolved);
  } else if (!caller.empty()) {
    ResolvePathInto(info.name, "", caller);
  }
  info.nameraw.assign(caller);
  if (info.name.empty()) info.name.assign(kernel);
  if (info.nameraw.empty()) info.nameraw.assign(kernel);
  if (e.info().syscall == "creat") {
    info.open_flags = O_CREAT | O_WRONLY | O_TRUNC;
  } else {
    info.open_flags = static_cast<uint32_t>(e.Int(KnownParam::kFlags).value_or(0));
  }
  if (info.open_flags & O_DIRECTORY) info.type = FdType::kDirectory;
  info.dev = UserDev(static_cast<uint64_t>(e.Int(KnownParam::kDev).value_or(0)));
  info.ino = static_cast<uint64_t>(e.Int(KnownParam::kIno).value_or(0));
  const uint64_t facts = static_cast<uint64_t>(e.Int(KnownParam::kOpenFacts).value_or(0));
  info.overlay_upper = (facts & KESTREL_OPEN_F_UPPER_LAYER) != 0;
  info.overlay_lower = (facts & KESTREL_OPEN_F_LOWER_LAYER) != 0;
}

FdType SocketFdType(int64_t family) {
  switch (family) {
    case AF_INET:
      return FdType::kIpv4Socket;
    case AF_INET6:
      return FdType::kIpv6Socket;
    case AF_UNIX:
      return FdType::kUnixSocket;
    case AF_NETLINK:
      return FdType::kNetlinkSocket;
    default:
      return FdType::kUnknown;
  }
}

// A new socket's facts from socket(2)'s arguments, into its fresh entry
// (FdTable::Reset); protocol 0 is the family's default for the type.
void InitSocket(FdInfo& info, int64_t family, int64_t type, int64_t proto) {
  info.type = SocketFdType(family);
  info.family = static_cast<uint8_t>(family);
  info.sock_type = static_cast<int32_t>(type & 0xf);  // without SOCK_NONBLOCK|SOCK_CLOEXEC
  if (type & SOCK_CLOEXEC) info.open_flags = O_CLOEXEC;
  if (proto == 0 && (family == AF_INET || family == AF_INET6)) {
    if (info.sock_type == SOCK_STREAM) proto = IPPROTO_TCP;
    if (info.sock_type == SOCK_DGRAM) proto = IPPROTO_UDP;
  }
  if (family == AF_INET || family == AF_INET6) info.l4proto = static_cast<uint8_t>(proto);
}

void Socket(ThreadInfo& t, const DecodedEvent& e, OtherThreads&) {
  std::optional<int64_t> fd = NewFd(e);
  if (!fd) return;
  InitSocket(t.fds->Reset(*fd), e.Int("domain").value_or(0), e.Int("type").value_or(0),
             e.Int("proto").value_or(0));
}

void Socketpair(ThreadInfo& t, const DecodedEvent& e, OtherThreads&) {
  if (!Succeeded(e)) return;
  // Falco names the pair fd1, fd2; records before the rename fd0, fd1.
  const bool falco_names = e.info().ParamIndex("fd2") >= 0;
  for (std::string_view name : {falco_names ? "fd1" : "fd0", falco_names ? "fd2" : "fd1"}) {
    std::optional<int64_t> fd = e.Int(name);
    if (!fd || *fd < 0) continue;
    InitSocket(t.fds->Reset(*fd), e.Int("domain").value_or(0), e.Int("type").value_or(0),
               e.Int("proto").value_or(0));
  }
}

// Falco's socket name: client address and port, then the server's; a unix
// socket is named by its path.
std::string SocketName(const SocketAddress& client, const SocketAddress& server) {
  if (client.family == KESTREL_AF_UNIX)
    return server.address.empty() ? client.address : server.address;
  return absl::StrCat(client.address, ":", client.port, "->", server.address, ":", server.port);
}

// The entry of `fd`, made a socket of the tuple's family when not known yet.
FdInfo& SocketEntry(ThreadInfo& t, int64_t fd, uint8_t family) {
  if (FdInfo* known = t.fds->Find(fd)) return *known;
  FdInfo info;
  info.fd = fd;
  info.family = family;
  info.type = SocketFdType(family);
  return t.fds->Set(std::move(info));
}

// A non-blocking connect still in progress has its tuple already.
void Connect(ThreadInfo& t, const DecodedEvent& e, OtherThreads&) {
  const std::optional<int64_t> res = e.Return();
  std::optional<int64_t> fd = e.Int(KnownParam::kFd);
  if (!res || (*res != 0 && *res != -EINPROGRESS) || !fd) return;
  std::optional<std::pair<SocketAddress, SocketAddress>> tuple = e.Tuple("tuple");
  if (!tuple) return;
  FdInfo& info = SocketEntry(t, *fd, tuple->first.family);
  info.local = std::move(tuple->first);
  info.remote = std::move(tuple->second);
  info.connected = true;
  info.is_server = false;
  info.name = SocketName(info.local, info.remote);
}

// accept/accept4: the new descriptor is the return value; the listening one
// is `fd` before the rename and an extra name after it (Falco's accept `fd`
// is the new descriptor).
void Accept(ThreadInfo& t, const DecodedEvent& e, OtherThreads&) {
  std::optional<int64_t> fd = NewFd(e);
  std::optional<std::pair<SocketAddress, SocketAddress>> tuple = e.Tuple("tuple");
  if (!fd || !tuple) return;
  std::optional<int64_t> listener = e.Int("listen_fd");
  const bool fd_is_listener = e.info().params[e.info().return_index].name != "fd";
  if (!listener && fd_is_listener) listener = e.Int(KnownParam::kFd);
  // What the new socket inherits from the listener, read before its entry
  // is added (which may move the listener's).
  const FdInfo* from = listener ? t.fds->Find(*listener) : nullptr;
  const int32_t sock_type = from ? from->sock_type : SOCK_STREAM;
  const uint8_t l4proto = from ? from->l4proto : 0;
  FdInfo& info = t.fds->Reset(*fd);
  info.family = tuple->first.family;
  info.type = SocketFdType(info.family);
  info.sock_type = sock_type;
  info.l4proto = l4proto;
  if (info.l4proto == 0 && info.type != FdType::kUnixSocket) info.l4proto = IPPROTO_TCP;
  if (e.Int(KnownParam::kFlags).value_or(0) & SOCK_CLOEXEC) info.open_flags = O_CLOEXEC;
  info.local = std::move(tuple->first);
  info.remote = std::move(tuple->second);
  info.connected = true;
  info.is_server = true;
  info.name = SocketName(info.remote, info.local);
}

void Bind(ThreadInfo& t, const DecodedEvent& e, OtherThreads&) {
  std::optional<int64_t> fd = e.Int(KnownParam::kFd);
  std::optional<SocketAddress> addr = e.Address("addr");
  if (!Succeeded(e) || !fd || !addr) return;
  FdInfo& info = SocketEntry(t, *fd, addr->family);
  info.local = *std::move(addr);
  if (info.local.family == KESTREL_AF_UNIX) info.name = info.local.address;
}

void Listen(ThreadInfo& t, const DecodedEvent& e, OtherThreads&) {
  std::optional<int64_t> fd = e.Int(KnownParam::kFd);
  if (!Succeeded(e) || !fd) return;
  if (FdInfo* info = t.fds->Find(*fd)) info->is_server = true;
}

// `to` becomes a copy of `from` (its tuple too), without close-on-exec
// unless `cloexec`.
void CopyFd(FdTable& fds, int64_t from, int64_t to, bool cloexec) {
  if (from == to) return;
  if (fds.Find(from) == nullptr) {
    fds.Erase(to);  // whatever `to` was is closed; what it is now is not known
    return;
  }
  FdInfo& copy = fds.Copy(from, to);
  copy.open_flags = cloexec ? (copy.open_flags | O_CLOEXEC) : (copy.open_flags & ~O_CLOEXEC);
}

// dup, dup2, dup3.
void Dup(ThreadInfo& t, const DecodedEvent& e, OtherThreads&) {
  std::optional<int64_t> fd = NewFd(e);
  std::optional<int64_t> oldfd = e.Int("oldfd");
  if (!fd || !oldfd) return;
  CopyFd(*t.fds, *oldfd, *fd, e.Int(KnownParam::kFlags).value_or(0) & O_CLOEXEC);
}

void Fcntl(ThreadInfo& t, const DecodedEvent& e, OtherThreads&) {
  std::optional<int64_t> res = e.Return();
  std::optional<int64_t> fd = e.Int(KnownParam::kFd);
  const int64_t cmd = e.Int("cmd").value_or(-1);
  if (!res || *res < 0 || !fd) return;
  if (cmd == F_DUPFD || cmd == F_DUPFD_CLOEXEC) {
    CopyFd(*t.fds, *fd, *res, cmd == F_DUPFD_CLOEXEC);
  } else if (cmd == F_SETFD) {
    if (FdInfo* info = t.fds->Find(*fd)) {
      const bool cloexec = e.Int("arg").value_or(0) & FD_CLOEXEC;
      info->open_flags = cloexec ? (info->open_flags | O_CLOEXEC) : (info->open_flags & ~O_CLOEXEC);
    }
  }
}

void Close(ThreadInfo& t, const DecodedEvent& e, OtherThreads&) {
  std::optional<int64_t> fd = e.Int(KnownParam::kFd);
  if (Succeeded(e) && fd) t.fds->Erase(*fd);
}

void CloseRange(ThreadInfo& t, const DecodedEvent& e, OtherThreads&) {
  if (!Succeeded(e)) return;
  const int64_t first = static_cast<uint32_t>(e.Int("first").value_or(0));
  const int64_t last = static_cast<uint32_t>(e.Int("last").value_or(UINT32_MAX));
  const int64_t flags = e.Int(KnownParam::kFlags).value_or(0);
  // CLOSE_RANGE_UNSHARE: the caller got its own table first.
  if ((flags & CLOSE_RANGE_UNSHARE) && t.fds.use_count() > 1) {
    t.fds = std::make_shared<FdTable>(*t.fds);
  }
  if (flags & CLOSE_RANGE_CLOEXEC) {
    t.fds->ForEachInRange(first, last, [](FdInfo& info) { info.open_flags |= O_CLOEXEC; });
  } else {
    t.fds->EraseRange(first, last);
  }
}

// Descriptors whose record says no more than their kind: Falco's name for
// them, which parameters hold the new descriptors (none: the return value),
// and the flags bit that makes them close-on-exec.
struct FdCreator {
  std::string_view syscall;
  FdType type;
  std::string_view name;
  std::string_view fd_params[2];
  uint32_t cloexec_flag;
};

constexpr FdCreator kFdCreators[] = {
    {"pipe", FdType::kPipe, "pipe", {"fd1", "fd2"}, 0},
    {"pipe2", FdType::kPipe, "pipe", {"fd1", "fd2"}, O_CLOEXEC},
    {"eventfd", FdType::kEvent, "anon_inode:[eventfd]", {}, 0},
    {"eventfd2", FdType::kEvent, "anon_inode:[eventfd]", {}, O_CLOEXEC},
    {"signalfd", FdType::kSignalfd, "anon_inode:[signalfd]", {}, 0},
    {"signalfd4", FdType::kSignalfd, "anon_inode:[signalfd]", {}, O_CLOEXEC},
    {"timerfd_create", FdType::kTimerfd, "anon_inode:[timerfd]", {}, O_CLOEXEC},
    {"inotify_init", FdType::kInotify, "anon_inode:inotify", {}, 0},
    {"inotify_init1", FdType::kInotify, "anon_inode:inotify", {}, O_CLOEXEC},
    {"epoll_create", FdType::kEventpoll, "anon_inode:[eventpoll]", {}, 0},
    {"epoll_create1", FdType::kEventpoll, "anon_inode:[eventpoll]", {}, O_CLOEXEC},
    {"pidfd_open", FdType::kPidfd, "anon_inode:[pidfd]", {}, 0},
    {"userfaultfd", FdType::kUserfaultfd, "anon_inode:[userfaultfd]", {}, O_CLOEXEC},
    {"io_uring_setup", FdType::kIoUring, "anon_inode:[io_uring]", {}, 0},
    // Another process's descriptor: what it is would take that process's
    // table; it is known to be open.
    {"pidfd_getfd", FdType::kUnknown, "", {}, 0},
    {"memfd_create", FdType::kMemfd, "memfd:", {}, MFD_CLOEXEC},
};

const FdCreator* CreatorOf(std::string_view syscall) {
  for (const FdCreator& c : kFdCreators) {
    if (c.syscall == syscall) return &c;
  }
  return nullptr;
}

void CreateFd(ThreadInfo& t, const DecodedEvent& e, OtherThreads&) {
  const FdCreator* creator = CreatorOf(e.info().syscall);
  std::optional<int64_t> res = e.Return();
  if (creator == nullptr || !res || *res < 0) return;
  FdInfo info;
  info.type = creator->type;
  info.name = creator->name;
  if (info.type == FdType::kMemfd) info.name += e.String("name").value_or("");
  if (info.type == FdType::kPipe) {
    info.ino = static_cast<uint64_t>(e.Int(KnownParam::kIno).value_or(0));
    info.name = absl::StrCat("pipe:[", info.ino, "]");
  }
  const uint32_t flags = static_cast<uint32_t>(e.Int(KnownParam::kFlags).value_or(0));
  if (creator->cloexec_flag != 0 && (flags & creator->cloexec_flag)) info.open_flags = O_CLOEXEC;
  if (creator->fd_params[0].empty()) {
    info.fd = *res;
    t.fds->Set(std::move(info));
    return;
  }
  for (std::string_view param : creator->fd_params) {
    std::optional<int64_t> fd = e.Int(param);
    if (!fd || *fd < 0) continue;
    FdInfo one = info;
    one.fd = *fd;
    t.fds->Set(std::move(one));
  }
}

constexpr StateUpdateEntry kFdUpdates[] = {
    {"open", OpenFile},
    {"openat", OpenFile},
    {"openat2", OpenFile},
    {"creat", OpenFile},
    {"open_by_handle_at", OpenFile},
    {"socket", Socket},
    {"socketpair", Socketpair},
    {"connect", Connect},
    {"accept", Accept},
    {"accept4", Accept},
    {"bind", Bind},
    {"listen", Listen},
    {"dup", Dup},
    {"dup2", Dup},
    {"dup3", Dup},
    {"fcntl", Fcntl},
    {"close", Close},
    {"close_range", CloseRange},
};

std::vector<StateUpdateEntry> AllFdUpdates() {
  std::vector<StateUpdateEntry> all(std::begin(kFdUpdates), std::end(kFdUpdates));
  for (const FdCreator& c : kFdCreators) all.push_back({c.syscall, CreateFd});
  return all;
}

}  // namespace

std::span<const StateUpdateEntry> FdStateUpdates() {
  static const std::vector<StateUpdateEntry> all = AllFdUpdates();
  return all;
}

void CloseOnExec(ThreadInfo& t) {
  if (!t.fds) return;
  // exec gives the process a table of its own before closing.
  if (t.fds.use_count() > 1) t.fds = std::make_shared<FdTable>(*t.fds);
  t.fds->EraseIf([](const FdInfo& info) { return (info.open_flags & O_CLOEXEC) != 0; });
}

}  // namespace kestrel::engine
