#include "kestrel/run/run_pidfile.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "absl/strings/str_cat.h"

namespace kestrel::cli {

absl::StatusOr<std::unique_ptr<PidFile>> PidFile::Write(std::string path) {
  const std::string text = absl::StrCat(getpid(), "\n");
  // Written whole under another name, then renamed: a reader never sees a
  // half-written pid.
  const std::string temporary = absl::StrCat(path, ".tmp.", getpid());
  const int fd = open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("-P ", path, ": cannot write the pid file: ", std::strerror(errno)));
  }
  const bool written = write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  const int saved = errno;
  close(fd);
  if (!written || rename(temporary.c_str(), path.c_str()) != 0) {
    const int why = written ? errno : saved;
    unlink(temporary.c_str());
    return absl::InvalidArgumentError(
        absl::StrCat("-P ", path, ": cannot write the pid file: ", std::strerror(why)));
  }
  return std::unique_ptr<PidFile>(new PidFile(std::move(path)));
}

PidFile::~PidFile() {
  std::ifstream file(path_);
  std::stringstream text;
  text << file.rdbuf();
  if (text.str() == absl::StrCat(getpid(), "\n")) unlink(path_.c_str());
}

}  // namespace kestrel::cli
