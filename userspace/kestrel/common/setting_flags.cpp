#include "kestrel/common/setting_flags.h"

#include <string_view>

#include "absl/strings/str_format.h"
#include "agent/probe/settings_keys.h"

namespace kestrel::cli {
namespace {

// " (0..16384, default 80)" after the help text.
std::string BoundsHelp(const kestrel_setting_row& row) {
  return absl::StrFormat(" (%u..%u, default %u)", row.min, row.max, row.def);
}

void AddNumberFlag(CLI::App& app, const kestrel_setting_row& row, SettingOverrides& out) {
  const std::string key = row.key;
  // CLI11 runs the validator before the callback, so the callback only
  // ever sees a value agent::ParseSettingValue accepts.
  CLI::Validator bounds(
      [&row](std::string& text) -> std::string {
        absl::StatusOr<uint64_t> v = agent::ParseSettingValue(row, text);
        return v.ok() ? std::string() : std::string(v.status().message());
      },
      "");
  app.add_option_function<std::string>(
         std::string("--") + row.flag,
         [&out, &row, key](const std::string& text) {
           out.values[key] = *agent::ParseSettingValue(row, text);
         },
         std::string(row.help) + BoundsHelp(row))
      ->check(bounds)
      ->type_name("N");
}

void AddSwitch(CLI::App& app, const kestrel_setting_row& row, SettingOverrides& out) {
  const std::string key = row.key;
  // A switch takes no value: "--drop-failed=0" must not turn it on.
  app.add_flag_callback(
         std::string("--") + row.flag, [&out, key]() { out.values[key] = 1; }, row.help)
      ->disable_flag_override();
}

}  // namespace

void AddSettingFlags(CLI::App& app, SettingOverrides& out) {
  for (const kestrel_setting_row& row : kestrel_setting_rows) {
    if (row.access != KESTREL_SETTING_USER || std::string_view(row.flag).empty()) continue;
    // A command may define a setting's flag itself when it does more than
    // the table says (capture's --pid also says when no such process exists).
    if (app.get_option_no_throw(std::string("--") + row.flag) != nullptr) continue;
    if (row.kind == KESTREL_SETTING_BOOL) {
      AddSwitch(app, row, out);
    } else if (row.kind == KESTREL_SETTING_UINT) {
      AddNumberFlag(app, row, out);
    }
  }
}

}  // namespace kestrel::cli
