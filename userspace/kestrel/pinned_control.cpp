#include "pinned_control.h"

#include "absl/status/status.h"
#include "stderr_log.h"

namespace kestrel::cli {

absl::StatusOr<std::string> TakePinDirFlag(std::vector<std::string>& args) {
  std::string dir = PMAN_DEFAULT_PIN_DIR;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] != "--pin-dir") continue;
    if (i + 1 >= args.size()) return absl::InvalidArgumentError("--pin-dir: needs a directory");
    dir = args[i + 1];
    args.erase(args.begin() + static_cast<long>(i), args.begin() + static_cast<long>(i) + 2);
    --i;
  }
  return dir;
}

ControlPtr OpenPinnedControl(const std::string& dir, const char* command) {
  pman_control* raw = nullptr;
  if (pman_control_open(dir.c_str(), LogToStderr, CommandLogContext(command), &raw) != 0) {
    return nullptr;
  }
  return ControlPtr(raw);
}

}  // namespace kestrel::cli
