#include "agent/rules/rules_reload.h"

#include <errno.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <set>

#include "absl/strings/str_cat.h"
#include "engine/decode/syscall_names.h"

namespace kestrel::agent {

absl::StatusOr<std::unique_ptr<RulesWatcher>> RulesWatcher::Create(
    const std::vector<std::string>& paths) {
  const int fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  if (fd < 0) return absl::ErrnoToStatus(errno, "inotify_init1");
  std::unique_ptr<RulesWatcher> watcher(new RulesWatcher(fd));
  constexpr uint32_t kMask = IN_CLOSE_WRITE | IN_MOVED_TO | IN_DELETE | IN_MOVED_FROM;
  for (const std::string& path : paths) {
    struct stat st {};
    const bool dir = stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
    std::string watched = path, name;
    if (!dir) {
      const size_t slash = path.rfind('/');
      watched = slash == std::string::npos ? "." : path.substr(0, std::max<size_t>(slash, 1));
      name = slash == std::string::npos ? path : path.substr(slash + 1);
    }
    const int wd = inotify_add_watch(fd, watched.c_str(), kMask);
    if (wd < 0) return absl::ErrnoToStatus(errno, absl::StrCat("watching ", watched));
    watcher->watches_.push_back({wd, name});
  }
  return watcher;
}

RulesWatcher::~RulesWatcher() { close(fd_); }

bool RulesWatcher::Changed() {
  alignas(inotify_event) char buf[4096];
  bool changed = false;
  for (;;) {
    const ssize_t n = read(fd_, buf, sizeof buf);
    if (n <= 0) break;
    for (ssize_t off = 0; off < n;) {
      const auto* ev = reinterpret_cast<const inotify_event*>(buf + off);
      off += sizeof(inotify_event) + ev->len;
      const std::string_view name = ev->len ? std::string_view(ev->name) : std::string_view();
      for (const Watch& w : watches_) {
        if (w.wd != ev->wd) continue;
        if (w.name.empty()) {
          // A directory of rules: only its rules files matter, not an
          // editor's swap files.
          if (name.ends_with(".yaml") || name.ends_with(".yml")) changed = true;
        } else if (name == w.name) {
          changed = true;
        }
      }
    }
  }
  return changed;
}

SyscallChange DiffSyscallSets(const std::vector<ChosenSyscall>& before,
                              const std::vector<ChosenSyscall>& after) {
  std::set<uint32_t> old_ids, new_ids;
  for (const ChosenSyscall& s : before) old_ids.insert(s.id);
  for (const ChosenSyscall& s : after) new_ids.insert(s.id);
  SyscallChange change;
  std::set_difference(new_ids.begin(), new_ids.end(), old_ids.begin(), old_ids.end(),
                      std::back_inserter(change.added));
  std::set_difference(old_ids.begin(), old_ids.end(), new_ids.begin(), new_ids.end(),
                      std::back_inserter(change.removed));
  return change;
}

absl::Status MarkSyscalls(pman_handle* handle, const std::vector<uint32_t>& ids, bool interesting) {
  // Growth as one set: libpman loads the fillers all the added syscalls
  // need in one load, and adds none of them if that load fails.
  if (interesting && ids.size() > 1) {
    std::vector<uint8_t> table(pman_syscall_table_size());
    if (pman_get_syscall_tables(handle, table.data(), nullptr, table.size()) == 0) {
      for (uint32_t id : ids) table[id] = 1;
      if (pman_enforce_sc_set(handle, table.data(), table.size()) != 0) {
        return absl::InternalError("could not turn the added syscalls on");
      }
      return absl::OkStatus();
    }
  }
  for (uint32_t id : ids) {
    if (pman_mark_single_64bit_syscall(handle, id, interesting) != 0) {
      return absl::InternalError(absl::StrCat(
          "could not turn ", std::string(engine::SyscallName(id)), interesting ? " on" : " off"));
    }
  }
  return absl::OkStatus();
}

std::string DescribeChange(const SyscallChange& change) {
  if (change.added.empty() && change.removed.empty()) return "no change";
  std::string text;
  for (uint32_t id : change.added)
    absl::StrAppend(&text, text.empty() ? "" : " ", "+", std::string(engine::SyscallName(id)));
  for (uint32_t id : change.removed)
    absl::StrAppend(&text, text.empty() ? "" : " ", "-", std::string(engine::SyscallName(id)));
  return text;
}

}  // namespace kestrel::agent
