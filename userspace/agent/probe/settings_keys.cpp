#include "agent/probe/settings_keys.h"

#include <algorithm>
#include <cstdint>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

namespace kestrel::agent {
namespace {

// This absl predates std::string_view interop.
absl::string_view Absl(std::string_view s) { return absl::string_view(s.data(), s.size()); }

std::vector<std::string> Split(std::string_view text, char sep) {
  return absl::StrSplit(Absl(text), sep);
}

absl::Status KeyError(std::string_view key, std::string_view value, std::string_view why) {
  return absl::InvalidArgumentError(absl::StrFormat("%s=%s: %s", key, value, why));
}

// A decimal number within the row's bounds.
absl::StatusOr<uint64_t> ParseBounded(const kestrel_setting_row& row, std::string_view text) {
  uint64_t v = 0;
  if (text.empty() || text[0] == '-' || text[0] == '+' || !absl::SimpleAtoi(Absl(text), &v)) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "%s expects a number from %u to %u, not \"%s\"", row.key, row.min, row.max, text));
  }
  if (v > row.max) {
    return absl::InvalidArgumentError(absl::StrFormat("%u is above the maximum %u", v, row.max));
  }
  if (v < row.min) {
    return absl::InvalidArgumentError(absl::StrFormat("%u is below the minimum %u", v, row.min));
  }
  return v;
}

absl::StatusOr<uint64_t> ParseBool(const kestrel_setting_row& row, std::string_view text) {
  if (text == "1" || text == "true" || text == "on") return 1;
  if (text == "0" || text == "false" || text == "off") return 0;
  return absl::InvalidArgumentError(
      absl::StrFormat("%s expects 0 or 1 (or true/false, on/off)", row.key));
}

// "a,b,c" into the row's slots, 0-filled; "" or "none" empties the set.
absl::Status ParseIdList(kestrel_capture_settings& s, const kestrel_setting_row& row,
                         std::string_view text) {
  std::vector<uint64_t> ids;
  if (text != "" && text != "none") {
    for (const std::string& item : Split(text, ',')) {
      absl::StatusOr<uint64_t> id = ParseBounded(row, item);
      if (!id.ok()) {
        return absl::InvalidArgumentError(
            absl::StrFormat("%s expects up to %u comma-separated ids from %u to %u, or none: %s",
                            row.key, row.count, row.min, row.max, id.status().message()));
      }
      ids.push_back(*id);
    }
  }
  if (ids.size() > row.count) {
    return absl::InvalidArgumentError(
        absl::StrFormat("%s holds up to %u ids, not %u", row.key, row.count, ids.size()));
  }
  ids.resize(row.count, 0);
  for (uint32_t i = 0; i < row.count; ++i) kestrel_setting_put(&s, &row, i, ids[i]);
  return absl::OkStatus();
}

// "LO-HI" with HI >= 1 and LO <= HI, or "none".
absl::Status ParsePortRange(kestrel_capture_settings& s, const kestrel_setting_row& row,
                            std::string_view text) {
  uint64_t lo = 0, hi = 0;
  if (text != "none") {
    const std::vector<std::string> parts = Split(text, '-');
    absl::StatusOr<uint64_t> plo =
        parts.size() == 2 ? ParseBounded(row, parts[0]) : absl::InvalidArgumentError("");
    absl::StatusOr<uint64_t> phi =
        parts.size() == 2 ? ParseBounded(row, parts[1]) : absl::InvalidArgumentError("");
    if (!plo.ok() || !phi.ok() || *phi == 0 || *plo > *phi) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "%s expects LO-HI (ports up to %u, 1 <= HI, LO <= HI) or none", row.key, row.max));
    }
    lo = *plo;
    hi = *phi;
  }
  kestrel_setting_put(&s, &row, 0, lo);
  kestrel_setting_put(&s, &row, 1, hi);
  return absl::OkStatus();
}

std::string FormatIdList(const kestrel_capture_settings& s, const kestrel_setting_row& row) {
  std::vector<uint64_t> ids;
  for (uint32_t i = 0; i < row.count; ++i) {
    if (const uint64_t v = kestrel_setting_get(&s, &row, i); v != 0) ids.push_back(v);
  }
  return ids.empty() ? std::string("none") : absl::StrJoin(ids, ",");
}

absl::Status UnknownKey(std::string_view key) {
  return absl::InvalidArgumentError(absl::StrFormat("unknown setting \"%s\"; known: %s", key,
                                                    absl::StrJoin(SettingKeys(), ", ")));
}

}  // namespace

const std::vector<std::string>& SettingKeys() {
  static const std::vector<std::string> keys = [] {
    std::vector<std::string> k;
    for (const kestrel_setting_row& row : kestrel_setting_rows) {
      if (row.access != KESTREL_SETTING_DERIVED) k.push_back(row.key);
    }
    return k;
  }();
  return keys;
}

const kestrel_setting_row* FindSetting(std::string_view key) {
  for (const kestrel_setting_row& row : kestrel_setting_rows) {
    if (row.access != KESTREL_SETTING_DERIVED && key == row.key) return &row;
  }
  return nullptr;
}

absl::StatusOr<uint64_t> ParseSettingValue(const kestrel_setting_row& row, std::string_view text) {
  return row.kind == KESTREL_SETTING_BOOL ? ParseBool(row, text) : ParseBounded(row, text);
}

absl::StatusOr<std::string> FormatSetting(const kestrel_capture_settings& s, std::string_view key) {
  const kestrel_setting_row* row = FindSetting(key);
  if (row == nullptr) return UnknownKey(key);
  switch (row->kind) {
    case KESTREL_SETTING_ID_LIST:
      return FormatIdList(s, *row);
    case KESTREL_SETTING_PORT_RANGE:
      if (kestrel_setting_get(&s, row, 1) == 0) return std::string("none");
      return absl::StrCat(kestrel_setting_get(&s, row, 0), "-", kestrel_setting_get(&s, row, 1));
    case KESTREL_SETTING_UINT:
    case KESTREL_SETTING_BOOL:
      break;
  }
  return absl::StrCat(kestrel_setting_get(&s, row, 0));
}

absl::Status ApplySetting(kestrel_capture_settings& s, std::string_view key,
                          std::string_view value) {
  const kestrel_setting_row* row = FindSetting(key);
  if (row == nullptr) return UnknownKey(key);
  if (row->access == KESTREL_SETTING_READ_ONLY) {
    return KeyError(key, value, absl::StrFormat("%s is read-only: the probe sets it at load", key));
  }
  if (row->access == KESTREL_SETTING_LIBPMAN) {
    return KeyError(
        key, value,
        absl::StrFormat("%s is read-only: libpman sets it to the capturing process", key));
  }
  kestrel_capture_settings next = s;
  absl::Status status;
  switch (row->kind) {
    case KESTREL_SETTING_ID_LIST:
      status = ParseIdList(next, *row, value);
      break;
    case KESTREL_SETTING_PORT_RANGE:
      status = ParsePortRange(next, *row, value);
      break;
    case KESTREL_SETTING_UINT:
    case KESTREL_SETTING_BOOL:
      absl::StatusOr<uint64_t> v = ParseSettingValue(*row, value);
      if (v.ok()) kestrel_setting_put(&next, row, 0, *v);
      status = v.status();
      break;
  }
  if (!status.ok()) return KeyError(key, value, std::string(status.message()));
  s = next;
  return absl::OkStatus();
}

absl::StatusOr<kestrel_capture_settings> ApplyAssignments(const kestrel_capture_settings& s,
                                                          const std::vector<std::string>& args) {
  kestrel_capture_settings next = s;
  for (const std::string& arg : args) {
    const size_t eq = arg.find('=');
    if (eq == std::string::npos) {
      return absl::InvalidArgumentError(
          absl::StrFormat("\"%s\" is not KEY=VALUE; nothing was changed", arg));
    }
    if (absl::Status st = ApplySetting(next, std::string_view(arg).substr(0, eq),
                                       std::string_view(arg).substr(eq + 1));
        !st.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(st.message(), "; nothing was changed"));
    }
  }
  return next;
}

absl::Status ApplySettingOverrides(const SettingOverrides& overrides,
                                   kestrel_capture_settings& settings) {
  kestrel_capture_settings next = settings;
  for (const auto& [key, value] : overrides.values) {
    const kestrel_setting_row* row = FindSetting(key);
    if (row == nullptr || row->access != KESTREL_SETTING_USER ||
        (row->kind != KESTREL_SETTING_UINT && row->kind != KESTREL_SETTING_BOOL)) {
      return absl::InvalidArgumentError(
          absl::StrFormat("\"%s\" is not a setting a flag can set", key));
    }
    if (value < row->min || value > row->max) {
      return absl::InvalidArgumentError(
          absl::StrFormat("--%s: %u is outside %u..%u", row->flag, value, row->min, row->max));
    }
    kestrel_setting_put(&next, row, 0, value);
  }
  settings = next;
  return absl::OkStatus();
}

}  // namespace kestrel::agent
