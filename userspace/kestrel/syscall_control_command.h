// `kestrel syscalls list|enable|disable NAME...`: the interesting-syscall
// table of a running, pinned capture.
#ifndef KESTREL_CLI_SYSCALL_CONTROL_COMMAND_H_
#define KESTREL_CLI_SYSCALL_CONTROL_COMMAND_H_

#include <string>
#include <vector>

namespace kestrel::cli {

extern const char kSyscallsUsage[];

// `args` starts with list, enable, disable or drop-class. Returns the exit code.
int RunSyscallControl(const std::vector<std::string>& args);

}  // namespace kestrel::cli

#endif  // KESTREL_CLI_SYSCALL_CONTROL_COMMAND_H_
