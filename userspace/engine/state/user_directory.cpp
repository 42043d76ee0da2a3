#include "engine/state/user_directory.h"

#include <sys/stat.h>

#include <fstream>
#include <sstream>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"

namespace kestrel::engine::state {
namespace {

// name:password:id:... lines; malformed lines and comments are skipped.
template <typename Entry>
absl::flat_hash_map<uint32_t, Entry> ParseNameFile(const std::string& text) {
  absl::flat_hash_map<uint32_t, Entry> names;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    if (line.empty() || line[0] == '#') continue;
    const std::vector<absl::string_view> fields = absl::StrSplit(line, ':');
    uint32_t id = 0;
    if (fields.size() < 3 || fields[0].empty() || !absl::SimpleAtoi(fields[2], &id)) continue;
    // The first entry for an id wins, as getpwuid(3) returns it.
    Entry entry;
    entry.name = std::string(fields[0]);
    if (fields.size() >= 7) {
      entry.home = std::string(fields[5]);
      entry.shell = std::string(fields[6]);
    }
    names.try_emplace(id, std::move(entry));
  }
  return names;
}

}  // namespace

UserDirectory::UserDirectory(std::string passwd_path, std::string group_path,
                             std::chrono::milliseconds check_interval)
    : check_interval_(check_interval) {
  users_.path = std::move(passwd_path);
  groups_.path = std::move(group_path);
}

void UserDirectory::RefreshIfChanged(NameFile& file) {
  const auto now = std::chrono::steady_clock::now();
  if (now < file.next_check) return;
  file.next_check = now + check_interval_;
  struct stat st {};
  if (stat(file.path.c_str(), &st) != 0) {
    file.names.clear();
    file.inode = 0;
    file.size = -1;
    file.mtime_ns = -1;
    return;
  }
  const int64_t mtime_ns =
      static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
  // Editors replace the file (a new inode); useradd rewrites it in place.
  if (st.st_ino == file.inode && st.st_size == file.size && mtime_ns == file.mtime_ns) return;
  std::ifstream in(file.path);
  std::stringstream text;
  text << in.rdbuf();
  file.names = ParseNameFile<Entry>(text.str());
  file.inode = st.st_ino;
  file.size = st.st_size;
  file.mtime_ns = mtime_ns;
  ++reads_;
}

const UserDirectory::Entry* UserDirectory::Lookup(NameFile& file, uint32_t id) {
  RefreshIfChanged(file);
  const auto it = file.names.find(id);
  return it == file.names.end() ? nullptr : &it->second;
}

std::string_view UserDirectory::UserName(uint32_t uid) {
  const Entry* e = Lookup(users_, uid);
  return e == nullptr ? std::string_view() : std::string_view(e->name);
}
std::string_view UserDirectory::GroupName(uint32_t gid) {
  const Entry* e = Lookup(groups_, gid);
  return e == nullptr ? std::string_view() : std::string_view(e->name);
}
std::string_view UserDirectory::UserHome(uint32_t uid) {
  const Entry* e = Lookup(users_, uid);
  return e == nullptr ? std::string_view() : std::string_view(e->home);
}
std::string_view UserDirectory::UserShell(uint32_t uid) {
  const Entry* e = Lookup(users_, uid);
  return e == nullptr ? std::string_view() : std::string_view(e->shell);
}

}  // namespace kestrel::engine::state
