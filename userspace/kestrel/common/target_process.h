// Tells the user when --pid names no process: a capture for a process that
// is about to start is legitimate, but a typo should not look like silence.
#ifndef KESTREL_CLI_TARGET_PROCESS_H_
#define KESTREL_CLI_TARGET_PROCESS_H_

#include <cstdint>
#include <string_view>

namespace kestrel::cli {

// When `pid` (not 0) names no process now, prints one line on stderr,
// prefixed by `command`, saying the run goes on and captures it if it appears.
void NoteMissingTargetProcess(std::string_view command, uint32_t pid);

}  // namespace kestrel::cli

#endif  // KESTREL_CLI_TARGET_PROCESS_H_
