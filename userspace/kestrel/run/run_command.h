// `kestrel run`: rules on live events (or a capture file), alerts out.
#ifndef KESTREL_CLI_RUN_COMMAND_H_
#define KESTREL_CLI_RUN_COMMAND_H_

#include <string>
#include <vector>

namespace kestrel::cli {

int RunRun(const std::vector<std::string>& args);

}  // namespace kestrel::cli

#endif  // KESTREL_CLI_RUN_COMMAND_H_
