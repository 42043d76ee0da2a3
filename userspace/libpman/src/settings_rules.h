// What libpman accepts as capture settings and what it publishes at load,
// both from the settings table (shared/settings_table.h).
#ifndef KESTREL_LIBPMAN_SETTINGS_RULES_H_
#define KESTREL_LIBPMAN_SETTINGS_RULES_H_

#include "absl/status/status.h"
#include "shared/capture_settings.h"

namespace kestrel::pman {

// Every row's default; boot_time_ns and own_tgid are the loader's to fill.
kestrel_capture_settings DefaultSettings();

// Refuses settings outside the table's bounds, or that the probe could
// misread; the message names the field. Derived rows are not checked: they
// are recomputed at publish.
absl::Status ValidateSettings(const kestrel_capture_settings& settings);

}  // namespace kestrel::pman

#endif  // KESTREL_LIBPMAN_SETTINGS_RULES_H_
