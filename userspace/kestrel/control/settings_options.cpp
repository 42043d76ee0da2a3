#include "kestrel/control/settings_options.h"

#include "agent/probe/settings_keys.h"
#include "kestrel/common/cli_app.h"
#include "kestrel/control/pinned_control.h"

namespace kestrel::cli {
namespace {

// Key names and value syntax do not depend on the running capture, so they
// are checked against a zeroed block before any capture is opened.
CLI::Validator KnownKey() {
  return CLI::Validator(
      [](std::string& key) -> std::string {
        absl::StatusOr<std::string> value = agent::FormatSetting(kestrel_capture_settings{}, key);
        return value.ok() ? "" : std::string(value.status().message());
      },
      "");
}

CLI::Validator Assignment() {
  return CLI::Validator(
      [](std::string& assignment) -> std::string {
        absl::StatusOr<kestrel_capture_settings> next =
            agent::ApplyAssignments(kestrel_capture_settings{}, {assignment});
        return next.ok() ? "" : std::string(next.status().message());
      },
      "");
}

}  // namespace

void DefineSettingsOptions(CLI::App& app, SettingsOptions& options) {
  app.require_subcommand(1, 1);
  CLI::App* get = AddSubVerb(app, "get", "print KEY=VALUE for these settings (default: all)",
                             "kestrel settings get sampling_ratio dropping_mode");
  get->parse_complete_callback([&options] { options.action = "get"; });
  get->add_option("KEY", options.keys, "setting names (see `kestrel settings get`)")
      ->check(KnownKey());
  PinDirOption(*get, &options.pin_dir);

  CLI::App* set = AddSubVerb(app, "set",
                             "change settings: all of them or, if one is refused, none; the "
                             "capture sees them on its next syscall",
                             "kestrel settings set dropping_mode=1 sampling_ratio=4");
  set->parse_complete_callback([&options] { options.action = "set"; });
  set->add_option("KEY=VALUE", options.assignments, "new values")->required()->check(Assignment());
  PinDirOption(*set, &options.pin_dir);
}

}  // namespace kestrel::cli
