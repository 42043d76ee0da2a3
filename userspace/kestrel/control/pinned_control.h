// Opening a capture pinned by another `kestrel` (or any libpman user) for
// the `settings` and `syscalls` commands.
#ifndef KESTREL_CLI_PINNED_CONTROL_H_
#define KESTREL_CLI_PINNED_CONTROL_H_

#include <memory>
#include <string>

#include "CLI/CLI.hpp"
#include "libpman_control.h"

namespace kestrel::cli {

struct ControlCloser {
  void operator()(pman_control* c) const { pman_control_close(c); }
};
using ControlPtr = std::unique_ptr<pman_control, ControlCloser>;

// Adds --pin-dir DIR to a sub-verb that opens a pinned capture; `*dir`
// keeps its value (libpman's default directory) when the flag is absent.
CLI::Option* PinDirOption(CLI::App& app, std::string* dir);

// Opens the capture at `dir`; on failure prints why, prefixed by `command`
// (a string literal).
ControlPtr OpenPinnedControl(const std::string& dir, const char* command);

}  // namespace kestrel::cli

#endif  // KESTREL_CLI_PINNED_CONTROL_H_
