#include "kestrel/control/syscall_control_command.h"

#include <cstdio>
#include <vector>

#include "absl/strings/str_format.h"
#include "engine/decode/syscall_names.h"
#include "kestrel/control/pinned_control.h"

namespace kestrel::cli {
namespace {

constexpr char kSyscallsCommand[] = "kestrel syscalls";

uint32_t DropClass(const std::string& name) {
  if (name == "never") return KESTREL_DROP_NEVER;
  if (name == "always") return KESTREL_DROP_ALWAYS;
  return KESTREL_DROP_SAMPLED;
}

int List(pman_control* control) {
  for (const engine::SyscallEntry& e : engine::AllSyscalls()) {
    const int on = pman_control_is_syscall_interesting(control, e.id);
    if (on < 0) return 1;
    absl::PrintF("%3u %-24s %s\n", e.id, e.name, on ? "on" : "off");
  }
  return 0;
}

}  // namespace

int RunSyscallControl(const SyscallsOptions& options) {
  const std::string& action = options.action;
  if (action == "list") {
    ControlPtr control = OpenPinnedControl(options.pin_dir, kSyscallsCommand);
    return control ? List(control.get()) : 1;
  }
  // Every name was checked when parsed, before anything changes.
  std::vector<uint32_t> ids;
  for (const std::string& names : options.names) {
    std::vector<uint32_t> some = *engine::ParseSyscallList(names);
    ids.insert(ids.end(), some.begin(), some.end());
  }
  ControlPtr control = OpenPinnedControl(options.pin_dir, kSyscallsCommand);
  if (!control) return 1;
  for (uint32_t id : ids) {
    const int rc =
        action == "drop-class"
            ? pman_control_set_syscall_drop_class(control.get(), id, DropClass(options.drop_class))
            : pman_control_mark_syscall(control.get(), id, action == "enable");
    if (rc != 0) return 1;
  }
  uint64_t generation = 0;
  pman_control_get_settings_generation(control.get(), &generation);
  absl::PrintF("%s: %u syscall(s) (generation %u)\n",
               action == "drop-class" ? "drop class " + options.drop_class : action + "d",
               ids.size(), generation);
  return 0;
}

}  // namespace kestrel::cli
