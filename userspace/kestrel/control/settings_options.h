// Command-line options of `kestrel settings get|set`.
#ifndef KESTREL_CLI_SETTINGS_OPTIONS_H_
#define KESTREL_CLI_SETTINGS_OPTIONS_H_

#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "libpman_control.h"

namespace kestrel::cli {

struct SettingsOptions {
  std::string action;  // "get" or "set"
  std::string pin_dir = PMAN_DEFAULT_PIN_DIR;
  std::vector<std::string> keys;         // get: empty = every key
  std::vector<std::string> assignments;  // set: KEY=VALUE each
};

inline constexpr char kSettingsDescription[] = "read or change the settings of a running capture";

void DefineSettingsOptions(CLI::App& app, SettingsOptions& options);

}  // namespace kestrel::cli

#endif  // KESTREL_CLI_SETTINGS_OPTIONS_H_
