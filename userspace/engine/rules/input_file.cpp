#include "engine/rules/input_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "absl/strings/str_cat.h"

namespace kestrel::engine::rules {
namespace {

const char* KindOf(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

}  // namespace

absl::Status CheckInputSize(uint64_t size, size_t max_bytes) {
  if (size <= max_bytes) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat("is ", size, " bytes, more than the ", max_bytes, "-byte limit: refused"));
}

absl::StatusOr<std::string> ReadInputFile(const std::string& path, size_t max_bytes) {
  // O_NONBLOCK: opening a FIFO with no writer must not wait for one.
  const int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) {
    const int err = errno;
    return absl::NotFoundError(absl::StrCat("cannot open the file: ", std::strerror(err)));
  }
  struct stat st {};
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    return absl::InvalidArgumentError(
        absl::StrCat("is ", KindOf(st.st_mode), ", not a regular file: refused"));
  }
  if (absl::Status s = CheckInputSize(static_cast<uint64_t>(st.st_size), max_bytes); !s.ok()) {
    close(fd);
    return s;
  }
  std::string text;
  text.resize(static_cast<size_t>(st.st_size) + 1);
  size_t got = 0;
  // Read to the limit, not to the size seen: a file growing meanwhile
  // (half-written by an editor) is still held to the limit.
  while (got <= max_bytes) {
    if (got == text.size()) text.resize(std::min(text.size() * 2, max_bytes + 1));
    const ssize_t n = read(fd, text.data() + got, text.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int err = errno;
      close(fd);
      return absl::InvalidArgumentError(absl::StrCat("cannot read the file: ", std::strerror(err)));
    }
    if (n == 0) break;
    got += static_cast<size_t>(n);
  }
  close(fd);
  if (got > max_bytes) {
    return absl::InvalidArgumentError(
        absl::StrCat("grew past the ", max_bytes, "-byte limit while read: refused"));
  }
  text.resize(got);
  return text;
}

std::vector<std::string> RulesFilesOf(const std::string& path, std::error_code& ec) {
  namespace fs = std::filesystem;
  ec.clear();
  if (!fs::is_directory(path, ec)) {
    ec.clear();
    return {path};
  }
  std::vector<std::string> files;
  for (const fs::directory_entry& entry : fs::directory_iterator(path, ec)) {
    const std::string ext = entry.path().extension().string();
    std::error_code kind;
    if (entry.is_regular_file(kind) && (ext == ".yaml" || ext == ".yml")) {
      files.push_back(entry.path().string());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace kestrel::engine::rules
