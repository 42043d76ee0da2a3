#include "kestrel/control/pinned_control.h"

#include "kestrel/common/stderr_log.h"

namespace kestrel::cli {

CLI::Option* PinDirOption(CLI::App& app, std::string* dir) {
  return app
      .add_option("--pin-dir", *dir,
                  "the directory the capture is pinned at (default " PMAN_DEFAULT_PIN_DIR ")")
      ->type_name("DIR")
      ->check(CLI::Validator(
          [](std::string& text) -> std::string { return text.empty() ? "needs a directory" : ""; },
          ""));
}

ControlPtr OpenPinnedControl(const std::string& dir, const char* command) {
  pman_control* raw = nullptr;
  if (pman_control_open(dir.c_str(), LogToStderr, CommandLogContext(command), &raw) != 0) {
    return nullptr;
  }
  return ControlPtr(raw);
}

}  // namespace kestrel::cli
