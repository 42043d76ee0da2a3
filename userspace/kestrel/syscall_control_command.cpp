#include "syscall_control_command.h"

#include <cstdio>
#include <optional>

#include "absl/strings/str_format.h"
#include "engine/decode/syscall_names.h"
#include "pinned_control.h"

namespace kestrel::cli {

const char kSyscallsUsage[] =
    "usage: kestrel syscalls                     the syscalls Kestrel knows\n"
    "       kestrel syscalls list [--pin-dir DIR]    each one's state in a running capture\n"
    "       kestrel syscalls enable|disable NAME... [--pin-dir DIR]\n"
    "       kestrel syscalls drop-class sampled|never|always NAME... [--pin-dir DIR]\n"
    "Names may also be comma-separated. The capture pinned at DIR (default\n" PMAN_DEFAULT_PIN_DIR
    ") sees the change on its next syscall.\n";

namespace {

constexpr char kCommand[] = "kestrel syscalls";

int Usage(const std::string& why) {
  absl::FPrintF(stderr, "%s: %s\n%s", kCommand, why, kSyscallsUsage);
  return 2;
}

std::optional<uint32_t> DropClass(const std::string& name) {
  if (name == "sampled") return KESTREL_DROP_SAMPLED;
  if (name == "never") return KESTREL_DROP_NEVER;
  if (name == "always") return KESTREL_DROP_ALWAYS;
  return std::nullopt;
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

int RunSyscallControl(const std::vector<std::string>& args_in) {
  std::vector<std::string> args = args_in;
  absl::StatusOr<std::string> dir = TakePinDirFlag(args);
  if (!dir.ok()) return Usage(std::string(dir.status().message()));
  if (args.empty()) return Usage("needs list, enable, disable or drop-class");
  const std::string sub = args[0];
  if (sub == "list") {
    if (args.size() > 1) return Usage("list takes no names");
    ControlPtr control = OpenPinnedControl(*dir, kCommand);
    return control ? List(control.get()) : 1;
  }
  // drop-class takes the class first: sampled, never or always.
  size_t first_name = 1;
  uint32_t drop_class = 0;
  if (sub == "drop-class") {
    const std::optional<uint32_t> parsed = args.size() > 1 ? DropClass(args[1]) : std::nullopt;
    if (!parsed) return Usage("drop-class needs sampled, never or always; nothing was changed");
    drop_class = *parsed;
    first_name = 2;
  } else if (sub != "enable" && sub != "disable") {
    return Usage(absl::StrFormat("unknown subcommand \"%s\"", sub));
  }
  if (args.size() <= first_name) return Usage(sub + " needs at least one syscall name");
  // Every name is checked before anything changes.
  std::vector<uint32_t> ids;
  for (size_t i = first_name; i < args.size(); ++i) {
    absl::StatusOr<std::vector<uint32_t>> some = engine::ParseSyscallList(args[i]);
    if (!some.ok()) return Usage(std::string(some.status().message()) + "; nothing was changed");
    ids.insert(ids.end(), some->begin(), some->end());
  }
  ControlPtr control = OpenPinnedControl(*dir, kCommand);
  if (!control) return 1;
  for (uint32_t id : ids) {
    const int rc = sub == "drop-class"
                       ? pman_control_set_syscall_drop_class(control.get(), id, drop_class)
                       : pman_control_mark_syscall(control.get(), id, sub == "enable");
    if (rc != 0) return 1;
  }
  uint64_t generation = 0;
  pman_control_get_settings_generation(control.get(), &generation);
  absl::PrintF("%s: %u syscall(s) (generation %u)\n",
               sub == "drop-class" ? "drop class " + args[1] : sub + "d", ids.size(), generation);
  return 0;
}

}  // namespace kestrel::cli
