// Command-line flags for the user-settable scalar settings (--snaplen N,
// --drop-failed, ...), registered from the settings table
// (shared/settings_table.h) with its help text and bounds.
#ifndef KESTREL_CLI_SETTING_FLAGS_H_
#define KESTREL_CLI_SETTING_FLAGS_H_

#include <cstdint>
#include <map>
#include <string>

#include "CLI/CLI.hpp"
#include "absl/status/status.h"
#include "agent/probe/settings_keys.h"

namespace kestrel::cli {

using agent::SettingOverrides;

// Registers one flag per USER row with a flag name: a switch for a BOOL
// row, an option taking N for a UINT row, validated against the row's
// bounds ("--snaplen: 70000 is above the maximum 16384"). Parsed values
// land in `out`, which must outlive the parse. A flag `app` already has is
// left to the command's own definition.
void AddSettingFlags(CLI::App& app, SettingOverrides& out);

}  // namespace kestrel::cli

#endif  // KESTREL_CLI_SETTING_FLAGS_H_
