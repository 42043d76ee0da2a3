#include "pinned_control.h"

#include <cstdio>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"

namespace kestrel::cli {
namespace {

// `ctx` is the command name, a string literal.
void LogToStderr(void* ctx, pman_log_level level, const char* message) {
  if (level >= PMAN_LOG_WARNING) {
    absl::FPrintF(stderr, "%s: %s\n", static_cast<const char*>(ctx), message);
  }
}

}  // namespace

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
  if (pman_control_open(dir.c_str(), LogToStderr, const_cast<char*>(command), &raw) != 0) {
    return nullptr;
  }
  return ControlPtr(raw);
}

}  // namespace kestrel::cli
