// The KEY=VALUE names of `kestrel settings` and how each maps onto
// struct kestrel_capture_settings.
#ifndef KESTREL_CLI_SETTINGS_KEYS_H_
#define KESTREL_CLI_SETTINGS_KEYS_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "shared/capture_settings.h"

namespace kestrel::cli {

// Every key, in the order `settings get` prints them.
const std::vector<std::string>& SettingKeys();

// The value of `key` as `settings get` prints it (and `set` accepts it).
absl::StatusOr<std::string> FormatSetting(const kestrel_capture_settings& s, std::string_view key);

// Sets `key` from `value` in `s`; on error `s` is unchanged and the message
// names the key and what it accepts.
absl::Status ApplySetting(kestrel_capture_settings& s, std::string_view key,
                          std::string_view value);

// Applies "KEY=VALUE" assignments to a copy of `s`: all of them or, at the
// first bad one, none.
absl::StatusOr<kestrel_capture_settings> ApplyAssignments(const kestrel_capture_settings& s,
                                                          const std::vector<std::string>& args);

}  // namespace kestrel::cli

#endif  // KESTREL_CLI_SETTINGS_KEYS_H_
