#include "process_names.h"

#include <fcntl.h>
#include <unistd.h>

#include "absl/strings/str_format.h"

namespace kestrel::engine {
namespace {

std::string ReadComm(uint32_t tgid, uint32_t tid) {
  const std::string path = absl::StrFormat("/proc/%u/task/%u/comm", tgid, tid);
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return "?";
  char buf[64];
  const ssize_t n = read(fd, buf, sizeof(buf));
  close(fd);
  if (n <= 0) return "?";
  std::string comm(buf, static_cast<size_t>(n));
  while (!comm.empty() && comm.back() == '\n') comm.pop_back();
  return comm;
}

}  // namespace

std::string_view ProcessNames::Comm(uint32_t tgid, uint32_t tid) {
  auto it = comms_.find(tid);
  if (it != comms_.end()) return it->second;
  if (comms_.size() >= kMaxEntries) comms_.clear();
  return comms_.emplace(tid, ReadComm(tgid, tid)).first->second;
}

}  // namespace kestrel::engine
