#include "proc_reader.h"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <charconv>
#include <memory>
#include <string_view>

#include "absl/strings/str_cat.h"

namespace kestrel::engine {
namespace {

std::optional<std::string> ReadSmallFile(const std::string& path) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  char buf[512];
  const ssize_t n = read(fd, buf, sizeof(buf));
  close(fd);
  if (n < 0) return std::nullopt;
  return std::string(buf, static_cast<size_t>(n));
}

std::optional<uint32_t> ParseId(std::string_view s) {
  uint32_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty()) return std::nullopt;
  return v;
}

// The ppid is the 4th field of stat; the comm (2nd) may hold spaces and
// parentheses, so fields are counted from its last ')'.
uint32_t ParentFromStat(const std::string& stat) {
  const size_t close = stat.rfind(')');
  if (close == std::string::npos) return 0;
  std::string_view rest(stat);
  rest.remove_prefix(close + 1);  // " S ppid ..."
  size_t field = 0;
  while (!rest.empty()) {
    while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
    const size_t end = std::min(rest.find(' '), rest.size());
    if (++field == 2) return ParseId(rest.substr(0, end)).value_or(0);
    rest.remove_prefix(end);
  }
  return 0;
}

std::string ReadExe(const std::string& proc_root, uint32_t tgid) {
  char buf[4096];
  const std::string link = absl::StrCat(proc_root, "/", tgid, "/exe");
  const ssize_t n = readlink(link.c_str(), buf, sizeof(buf));
  return n > 0 ? std::string(buf, static_cast<size_t>(n)) : std::string();
}

struct DirCloser {
  void operator()(DIR* d) const { closedir(d); }
};

template <typename Visit>
void ForEachNumericEntry(const std::string& dir, Visit visit) {
  std::unique_ptr<DIR, DirCloser> d(opendir(dir.c_str()));
  if (!d) return;
  while (const dirent* e = readdir(d.get())) {
    if (std::optional<uint32_t> id = ParseId(e->d_name)) visit(*id);
  }
}

std::optional<ThreadInfo> ReadThread(const std::string& proc_root, uint32_t tgid, uint32_t tid,
                                     const std::string& exe) {
  const std::string dir = absl::StrCat(proc_root, "/", tgid, "/task/", tid);
  std::optional<std::string> comm = ReadSmallFile(dir + "/comm");
  if (!comm) return std::nullopt;
  if (!comm->empty() && comm->back() == '\n') comm->pop_back();
  ThreadInfo t;
  t.tid = tid;
  t.tgid = tgid;
  t.comm = *std::move(comm);
  t.exe = exe;
  if (std::optional<std::string> stat = ReadSmallFile(dir + "/stat"))
    t.ppid = ParentFromStat(*stat);
  return t;
}

}  // namespace

std::optional<ThreadInfo> ReadProcThread(const std::string& proc_root, uint32_t tgid,
                                         uint32_t tid) {
  return ReadThread(proc_root, tgid, tid, ReadExe(proc_root, tgid));
}

void ForEachProcThread(const std::string& proc_root, const std::function<void(ThreadInfo)>& visit) {
  ForEachNumericEntry(proc_root, [&](uint32_t tgid) {
    const std::string exe = ReadExe(proc_root, tgid);
    ForEachNumericEntry(absl::StrCat(proc_root, "/", tgid, "/task"), [&](uint32_t tid) {
      if (std::optional<ThreadInfo> t = ReadThread(proc_root, tgid, tid, exe)) visit(*std::move(t));
    });
  });
}

}  // namespace kestrel::engine
