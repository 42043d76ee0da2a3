#include "syscalls_command.h"

#include <cstdio>

#include "absl/strings/str_format.h"
#include "engine/schema_listing.h"
#include "engine/syscall_names.h"

namespace kestrel::cli {

int RunSyscalls(const std::vector<std::string>& args) {
  if (!args.empty() && args[0] == "coverage") {
    std::fputs(engine::FormatSyscallCoverage().c_str(), stdout);
    return 0;
  }
  if (!args.empty() && args[0] != "list") {
    absl::FPrintF(stderr,
                  "kestrel syscalls: unknown subcommand \"%s\"\n"
                  "usage: kestrel syscalls [list | coverage]\n",
                  args[0]);
    return 2;
  }
  for (const engine::SyscallEntry& e : engine::AllSyscalls()) {
    absl::PrintF("%3u %s\n", e.id, e.name);
  }
  return 0;
}

}  // namespace kestrel::cli
