// `kestrel syscalls list|enable|disable|drop-class`: the interesting-syscall
// table and drop classes of a running, pinned capture.
#ifndef KESTREL_CLI_SYSCALL_CONTROL_COMMAND_H_
#define KESTREL_CLI_SYSCALL_CONTROL_COMMAND_H_

#include "kestrel/control/syscalls_options.h"

namespace kestrel::cli {

// `options.action` is list, enable, disable or drop-class, and the names
// were checked when parsed. Returns the exit code.
int RunSyscallControl(const SyscallsOptions& options);

}  // namespace kestrel::cli

#endif  // KESTREL_CLI_SYSCALL_CONTROL_COMMAND_H_
