// `kestrel recorder start|stop`: a flight recorder that runs with no
// process attached.
#ifndef KESTREL_CLI_RECORDER_COMMAND_H_
#define KESTREL_CLI_RECORDER_COMMAND_H_

#include <string>
#include <vector>

namespace kestrel::cli {

// Returns the process exit code.
int RunRecorder(const std::vector<std::string>& args);

}  // namespace kestrel::cli

#endif  // KESTREL_CLI_RECORDER_COMMAND_H_
