// Names of users and groups (`user.name`, `group.name`, `user.loginname`),
// and users' home directories and shells (`user.homedir`, `user.shell`),
// from /etc/passwd and /etc/group, read once and read again when a file
// changes, so a user added while Kestrel runs gets its name.
#ifndef KESTREL_ENGINE_STATE_USER_DIRECTORY_H_
#define KESTREL_ENGINE_STATE_USER_DIRECTORY_H_

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

#include "absl/container/flat_hash_map.h"

namespace kestrel::engine::state {

class UserDirectory {
 public:
  // How often a lookup may stat the files to see whether they changed: a
  // lookup per event must not cost a syscall per event.
  static constexpr std::chrono::milliseconds kDefaultCheckInterval{1000};

  explicit UserDirectory(std::string passwd_path = "/etc/passwd",
                         std::string group_path = "/etc/group",
                         std::chrono::milliseconds check_interval = kDefaultCheckInterval);

  // The name of `uid` / `gid`; empty when the file has no such entry (or
  // cannot be read).
  std::string_view UserName(uint32_t uid);
  std::string_view GroupName(uint32_t gid);
  // The home directory and login shell /etc/passwd gives `uid`; empty when
  // it has no such entry, or leaves the field empty.
  std::string_view UserHome(uint32_t uid);
  std::string_view UserShell(uint32_t uid);

  // How many times a file was (re)read, for tests and stats.
  uint64_t reads() const { return reads_; }

 private:
  // One line of a file: passwd's home and shell (fields 5 and 6) are
  // empty for groups.
  struct Entry {
    std::string name, home, shell;
  };
  // One colon-separated file: name is field 0, the id field 2.
  struct NameFile {
    std::string path;
    absl::flat_hash_map<uint32_t, Entry> names;
    // What the file was when last read: a change to any of these reloads.
    ino_t inode = 0;
    off_t size = -1;
    int64_t mtime_ns = -1;
    std::chrono::steady_clock::time_point next_check{};
  };

  const Entry* Lookup(NameFile& file, uint32_t id);
  void RefreshIfChanged(NameFile& file);

  NameFile users_;
  NameFile groups_;
  std::chrono::milliseconds check_interval_;
  uint64_t reads_ = 0;
};

}  // namespace kestrel::engine::state

#endif  // KESTREL_ENGINE_STATE_USER_DIRECTORY_H_
