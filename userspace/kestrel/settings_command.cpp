#include "settings_command.h"

#include <cerrno>
#include <cstdio>
#include <string_view>

#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "pinned_control.h"
#include "settings_keys.h"

namespace kestrel::cli {

const char kSettingsUsage[] =
    "usage: kestrel settings get [KEY...] [--pin-dir DIR]\n"
    "       kestrel settings set KEY=VALUE... [--pin-dir DIR]\n"
    "Reads or changes the settings of the capture pinned at DIR\n"
    "(default " PMAN_DEFAULT_PIN_DIR "); a change takes effect on the next syscall.\n";

namespace {

constexpr char kCommand[] = "kestrel settings";

int Usage(const std::string& why) {
  absl::FPrintF(stderr, "%s: %s\n%s", kCommand, why, kSettingsUsage);
  return 2;
}

int Get(pman_control* control, const std::vector<std::string>& keys) {
  kestrel_capture_settings s{};
  if (pman_control_get_capture_settings(control, &s) != 0) return 1;
  std::vector<std::string> lines;
  for (const std::string& key : keys.empty() ? SettingKeys() : keys) {
    absl::StatusOr<std::string> value = FormatSetting(s, key);
    if (!value.ok()) return Usage(std::string(value.status().message()));
    lines.push_back(absl::StrFormat("%s=%s", key, *value));
  }
  for (const std::string& line : lines) absl::PrintF("%s\n", line);
  return 0;
}

struct EditContext {
  const std::vector<std::string>* assignments;
  std::string error;
};

int ApplyEdit(void* ctx, kestrel_capture_settings* s) {
  auto* edit = static_cast<EditContext*>(ctx);
  absl::StatusOr<kestrel_capture_settings> next = ApplyAssignments(*s, *edit->assignments);
  if (!next.ok()) {
    edit->error = std::string(next.status().message());
    return -EINVAL;
  }
  *s = *next;
  return 0;
}

int Set(pman_control* control, const std::vector<std::string>& assignments) {
  // Checked before touching the capture, then applied under the writer lock
  // to the settings as they are at that moment.
  kestrel_capture_settings current{};
  if (pman_control_get_capture_settings(control, &current) != 0) return 1;
  if (absl::StatusOr<kestrel_capture_settings> dry = ApplyAssignments(current, assignments);
      !dry.ok()) {
    return Usage(std::string(dry.status().message()));
  }
  EditContext edit{&assignments, {}};
  if (pman_control_edit_capture_settings(control, ApplyEdit, &edit) != 0) {
    if (!edit.error.empty()) absl::FPrintF(stderr, "%s: %s\n", kCommand, edit.error);
    return 1;
  }
  uint64_t generation = 0;
  pman_control_get_settings_generation(control, &generation);
  absl::PrintF("settings updated: %s (generation %u)\n", absl::StrJoin(assignments, " "),
               generation);
  return 0;
}

}  // namespace

int RunSettings(const std::vector<std::string>& args_in) {
  std::vector<std::string> args = args_in;
  absl::StatusOr<std::string> dir = TakePinDirFlag(args);
  if (!dir.ok()) return Usage(std::string(dir.status().message()));
  if (args.empty()) return Usage("needs get or set");
  const std::string sub = args[0];
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  if (sub != "get" && sub != "set") return Usage(absl::StrFormat("unknown subcommand \"%s\"", sub));
  if (sub == "set" && rest.empty()) return Usage("set needs at least one KEY=VALUE");
  ControlPtr control = OpenPinnedControl(*dir, kCommand);
  if (!control) return 1;
  return sub == "get" ? Get(control.get(), rest) : Set(control.get(), rest);
}

}  // namespace kestrel::cli
