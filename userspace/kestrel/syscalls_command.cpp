#include "syscalls_command.h"

#include <cstdio>

#include "absl/strings/str_format.h"
#include "engine/decode/schema_listing.h"
#include "engine/decode/syscall_names.h"
#include "syscall_control_command.h"

namespace kestrel::cli {

int RunSyscalls(const std::vector<std::string>& args) {
  if (!args.empty() && args[0] == "coverage") {
    std::fputs(engine::FormatSyscallCoverage().c_str(), stdout);
    return 0;
  }
  // With a subcommand it acts on a running capture.
  if (!args.empty()) return RunSyscallControl(args);
  for (const engine::SyscallEntry& e : engine::AllSyscalls()) {
    absl::PrintF("%3u %s\n", e.id, e.name);
  }
  return 0;
}

}  // namespace kestrel::cli
