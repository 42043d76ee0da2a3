// `kestrel capture`: load the probe and print live events.
#ifndef KESTREL_CLI_CAPTURE_COMMAND_H_
#define KESTREL_CLI_CAPTURE_COMMAND_H_

#include <string>
#include <vector>

namespace kestrel::cli {

// Returns the process exit code.
int RunCapture(const std::vector<std::string>& args);

}  // namespace kestrel::cli

#endif  // KESTREL_CLI_CAPTURE_COMMAND_H_
