// `kestrel settings get|set`: read or change the settings of a running,
// pinned capture in place.
#ifndef KESTREL_CLI_SETTINGS_COMMAND_H_
#define KESTREL_CLI_SETTINGS_COMMAND_H_

#include <string>
#include <vector>

namespace kestrel::cli {

// Returns the process exit code.
int RunSettings(const std::vector<std::string>& args);

}  // namespace kestrel::cli

#endif  // KESTREL_CLI_SETTINGS_COMMAND_H_
