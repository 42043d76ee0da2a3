// Command-line options of `kestrel syscalls` and its sub-commands:
// coverage, and list|enable|disable|drop-class on a running capture.
#ifndef KESTREL_CLI_SYSCALLS_OPTIONS_H_
#define KESTREL_CLI_SYSCALLS_OPTIONS_H_

#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "libpman_control.h"

namespace kestrel::cli {

struct SyscallsOptions {
  // The sub-command given: "" (print the syscalls Kestrel knows),
  // "coverage", "list", "enable", "disable" or "drop-class".
  std::string action;
  std::string pin_dir = PMAN_DEFAULT_PIN_DIR;
  std::string drop_class;          // drop-class: sampled, never or always
  std::vector<std::string> names;  // each may hold comma-separated names
};

inline constexpr char kSyscallsDescription[] =
    "list the syscalls Kestrel knows, or toggle them in a running capture";

void DefineSyscallsOptions(CLI::App& app, SyscallsOptions& options);

}  // namespace kestrel::cli

#endif  // KESTREL_CLI_SYSCALLS_OPTIONS_H_
