// The KEY=VALUE names of `kestrel settings` and how each maps onto
// struct kestrel_capture_settings, all from the settings table
// (shared/settings_table.h).
#ifndef KESTREL_AGENT_PROBE_SETTINGS_KEYS_H_
#define KESTREL_AGENT_PROBE_SETTINGS_KEYS_H_

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "shared/capture_settings.h"
#include "shared/settings_rows.h"

namespace kestrel::agent {

// Every key `settings get` prints, in table order (derived rows are not
// keys).
const std::vector<std::string>& SettingKeys();

// The table row of `key`, or nullptr.
const kestrel_setting_row* FindSetting(std::string_view key);

// `text` as a value of a UINT or BOOL row, within its bounds. Errors say
// what is wrong with the value, e.g. "70000 is above the maximum 16384".
absl::StatusOr<uint64_t> ParseSettingValue(const kestrel_setting_row& row, std::string_view text);

// The value of `key` as `settings get` prints it (and `set` accepts it).
absl::StatusOr<std::string> FormatSetting(const kestrel_capture_settings& s, std::string_view key);

// Sets `key` from `value` in `s`; on error `s` is unchanged and the message
// names the key and what it accepts. Only USER rows may be set.
absl::Status ApplySetting(kestrel_capture_settings& s, std::string_view key,
                          std::string_view value);

// Applies "KEY=VALUE" assignments to a copy of `s`: all of them or, at the
// first bad one, none.
absl::StatusOr<kestrel_capture_settings> ApplyAssignments(const kestrel_capture_settings& s,
                                                          const std::vector<std::string>& args);

// Settings given by key (a command line's --snaplen N ...); a setting not
// given keeps whatever the probe has.
struct SettingOverrides {
  std::map<std::string, uint64_t> values;
};

// Writes the overrides into `settings`; refuses a key the table does not
// have or a value outside its bounds, changing nothing.
absl::Status ApplySettingOverrides(const SettingOverrides& overrides,
                                   kestrel_capture_settings& settings);

}  // namespace kestrel::agent

#endif  // KESTREL_AGENT_PROBE_SETTINGS_KEYS_H_
