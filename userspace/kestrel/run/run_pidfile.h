// Falco's `-P, --pidfile`: the running monitor's pid in a file, for the
// service manager or script that started it; removed when it exits.
#ifndef KESTREL_CLI_RUN_PIDFILE_H_
#define KESTREL_CLI_RUN_PIDFILE_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"

namespace kestrel::cli {

class PidFile {
 public:
  // Writes this process's pid and a newline to `path` (created or
  // replaced); an error names the path and why.
  static absl::StatusOr<std::unique_ptr<PidFile>> Write(std::string path);
  // Removes the file, unless another process has written its own since.
  ~PidFile();
  PidFile(const PidFile&) = delete;
  PidFile& operator=(const PidFile&) = delete;

 private:
  explicit PidFile(std::string path) : path_(std::move(path)) {}
  std::string path_;
};

}  // namespace kestrel::cli

#endif  // KESTREL_CLI_RUN_PIDFILE_H_
