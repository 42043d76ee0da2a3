#include "kestrel/control/syscalls_command.h"

#include <cstdio>
#include <memory>
#include <optional>

#include "absl/strings/str_format.h"
#include "engine/decode/schema_listing.h"
#include "engine/decode/syscall_names.h"
#include "kestrel/common/cli_app.h"
#include "kestrel/control/syscall_control_command.h"
#include "kestrel/control/syscalls_options.h"

namespace kestrel::cli {

int RunSyscalls(const std::vector<std::string>& args) {
  std::unique_ptr<CLI::App> app =
      MakeVerbApp("syscalls",
                  "Without a sub-command, prints the x86_64 syscalls Kestrel knows, one\n"
                  "\"ID NAME\" line each. The sub-commands list or change the syscalls of\n"
                  "a capture pinned with `kestrel capture --pin`; it sees a change on its\n"
                  "next syscall.",
                  "kestrel syscalls | grep open");
  SyscallsOptions options;
  DefineSyscallsOptions(*app, options);
  if (std::optional<int> done = ParseVerb(*app, args)) return *done;
  if (options.action == "coverage") {
    std::fputs(engine::FormatSyscallCoverage().c_str(), stdout);
    return 0;
  }
  if (!options.action.empty()) return RunSyscallControl(options);
  for (const engine::SyscallEntry& e : engine::AllSyscalls()) {
    absl::PrintF("%3u %s\n", e.id, e.name);
  }
  return 0;
}

}  // namespace kestrel::cli
