// `kestrel syscalls`: the syscall names Kestrel knows, with their ids.
#ifndef KESTREL_CLI_SYSCALLS_COMMAND_H_
#define KESTREL_CLI_SYSCALLS_COMMAND_H_

#include <string>
#include <vector>

namespace kestrel::cli {

int RunSyscalls(const std::vector<std::string>& args);

}  // namespace kestrel::cli

#endif  // KESTREL_CLI_SYSCALLS_COMMAND_H_
