// `kestrel dump`: print the newest records of a running flight recorder.
#ifndef KESTREL_CLI_DUMP_COMMAND_H_
#define KESTREL_CLI_DUMP_COMMAND_H_

#include <string>
#include <vector>

namespace kestrel::cli {

// Returns the process exit code.
int RunDump(const std::vector<std::string>& args);

}  // namespace kestrel::cli

#endif  // KESTREL_CLI_DUMP_COMMAND_H_
