#include "kestrel/control/syscalls_options.h"

#include "kestrel/common/cli_app.h"
#include "kestrel/common/cli_validators.h"
#include "kestrel/control/pinned_control.h"

namespace kestrel::cli {
namespace {

CLI::App* AddAction(CLI::App& app, SyscallsOptions& options, const char* name,
                    const char* description, const char* example) {
  CLI::App* sub = AddSubVerb(app, name, description, example);
  sub->parse_complete_callback([&options, name] { options.action = name; });
  return sub;
}

void AddNames(CLI::App& sub, SyscallsOptions& options) {
  sub.add_option("NAME", options.names, "syscall names, also comma-separated")
      ->required()
      ->check(SyscallNames());
}

}  // namespace

void DefineSyscallsOptions(CLI::App& app, SyscallsOptions& options) {
  app.require_subcommand(0, 1);
  AddAction(app, options, "coverage", "print which syscalls have a specific event, as Markdown",
            "kestrel syscalls coverage > docs/syscall_coverage.md");

  CLI::App* list =
      AddAction(app, options, "list", "print each syscall's state (on or off) in a running capture",
                "kestrel syscalls list --pin-dir /sys/fs/bpf/kestrel");
  PinDirOption(*list, &options.pin_dir);

  CLI::App* enable =
      AddAction(app, options, "enable", "start capturing these syscalls in a running capture",
                "kestrel syscalls enable openat,execve");
  AddNames(*enable, options);
  PinDirOption(*enable, &options.pin_dir);

  CLI::App* disable =
      AddAction(app, options, "disable", "stop capturing these syscalls in a running capture",
                "kestrel syscalls disable getppid");
  AddNames(*disable, options);
  PinDirOption(*disable, &options.pin_dir);

  CLI::App* drop_class = AddAction(
      app, options, "drop-class",
      "set how these syscalls fare in dropping mode: sampled (keep 1 in sampling_ratio, the "
      "default), never dropped, or always dropped",
      "kestrel syscalls drop-class never execve,exit_group");
  drop_class->add_option("CLASS", options.drop_class, "sampled, never or always")
      ->required()
      ->type_name("sampled|never|always")
      ->check(OneOf({"sampled", "never", "always"}));
  AddNames(*drop_class, options);
  PinDirOption(*drop_class, &options.pin_dir);
}

}  // namespace kestrel::cli
