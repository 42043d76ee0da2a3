#include "kestrel/control/settings_command.h"

#include <cerrno>
#include <cstdio>
#include <memory>
#include <optional>
#include <string_view>

#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "agent/probe/settings_keys.h"
#include "kestrel/common/cli_app.h"
#include "kestrel/control/pinned_control.h"
#include "kestrel/control/settings_options.h"

namespace kestrel::cli {

namespace {

constexpr char kSettingsCommand[] = "kestrel settings";

int Get(const CLI::App& app, pman_control* control, const std::vector<std::string>& keys) {
  kestrel_capture_settings s{};
  if (pman_control_get_capture_settings(control, &s) != 0) return 1;
  std::vector<std::string> lines;
  for (const std::string& key : keys.empty() ? agent::SettingKeys() : keys) {
    absl::StatusOr<std::string> value = agent::FormatSetting(s, key);
    if (!value.ok()) return UsageError(app, std::string(value.status().message()));
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
  absl::StatusOr<kestrel_capture_settings> next = agent::ApplyAssignments(*s, *edit->assignments);
  if (!next.ok()) {
    edit->error = std::string(next.status().message());
    return -EINVAL;
  }
  *s = *next;
  return 0;
}

int Set(const CLI::App& app, pman_control* control, const std::vector<std::string>& assignments) {
  // Checked before touching the capture, then applied under the writer lock
  // to the settings as they are at that moment.
  kestrel_capture_settings current{};
  if (pman_control_get_capture_settings(control, &current) != 0) return 1;
  if (absl::StatusOr<kestrel_capture_settings> dry = agent::ApplyAssignments(current, assignments);
      !dry.ok()) {
    return UsageError(app, std::string(dry.status().message()));
  }
  EditContext edit{&assignments, {}};
  if (pman_control_edit_capture_settings(control, ApplyEdit, &edit) != 0) {
    if (!edit.error.empty()) absl::FPrintF(stderr, "%s: %s\n", kSettingsCommand, edit.error);
    return 1;
  }
  uint64_t generation = 0;
  pman_control_get_settings_generation(control, &generation);
  absl::PrintF("settings updated: %s (generation %u)\n", absl::StrJoin(assignments, " "),
               generation);
  return 0;
}

}  // namespace

int RunSettings(const std::vector<std::string>& args) {
  std::unique_ptr<CLI::App> app =
      MakeVerbApp("settings",
                  "Reads or changes the settings of a capture pinned with `kestrel capture\n"
                  "--pin`; a change takes effect on the capture's next syscall.",
                  "kestrel settings set sampling_ratio=8 --pin-dir /sys/fs/bpf/kestrel");
  SettingsOptions options;
  DefineSettingsOptions(*app, options);
  if (std::optional<int> done = ParseVerb(*app, args)) return *done;
  ControlPtr control = OpenPinnedControl(options.pin_dir, kSettingsCommand);
  if (!control) return 1;
  return options.action == "get" ? Get(*app, control.get(), options.keys)
                                 : Set(*app, control.get(), options.assignments);
}

}  // namespace kestrel::cli
