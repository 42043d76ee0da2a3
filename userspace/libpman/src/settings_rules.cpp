#include "settings_rules.h"

#include <cstddef>
#include <string>

#include "absl/strings/str_format.h"
#include "shared/settings_rows.h"

namespace kestrel::pman {
namespace {

absl::Status FieldError(const std::string& field, const std::string& why) {
  return absl::InvalidArgumentError(absl::StrFormat("%s %s; nothing was changed", field, why));
}

// The name of value `i` of `row`: the key, indexed when the row holds
// several (a list's slots, a port range's lo and hi).
std::string ValueName(const kestrel_setting_row& row, uint32_t i) {
  return row.count == 1 ? std::string(row.key) : absl::StrFormat("%s[%u]", row.key, i);
}

absl::Status CheckBounds(const kestrel_capture_settings& s, const kestrel_setting_row& row) {
  for (uint32_t i = 0; i < row.count; ++i) {
    const uint64_t v = kestrel_setting_get(&s, &row, i);
    // An unused list slot.
    if (row.kind == KESTREL_SETTING_ID_LIST && v == 0) continue;
    if (v > row.max) {
      return FieldError(ValueName(row, i),
                        absl::StrFormat("%u is above the maximum %u", v, row.max));
    }
    if (v < row.min) {
      return FieldError(ValueName(row, i),
                        absl::StrFormat("%u is below the minimum %u", v, row.min));
    }
  }
  return absl::OkStatus();
}

}  // namespace

kestrel_capture_settings DefaultSettings() {
  kestrel_capture_settings s{};
  for (const kestrel_setting_row& row : kestrel_setting_rows) {
    for (uint32_t i = 0; i < row.count; ++i) kestrel_setting_put(&s, &row, i, row.def);
  }
  return s;
}

absl::Status ValidateSettings(const kestrel_capture_settings& s) {
  for (const kestrel_setting_row& row : kestrel_setting_rows) {
    if (row.access == KESTREL_SETTING_DERIVED) continue;
    // 0 keeps everything outside dropping mode, as 1 does: callers that
    // zero the struct have always been able to publish it.
    if (row.offset == offsetof(kestrel_capture_settings, sampling_ratio) && s.sampling_ratio == 0) {
      if (s.dropping_mode)
        return FieldError("sampling_ratio", "must be at least 1 in dropping mode");
      continue;
    }
    if (absl::Status st = CheckBounds(s, row); !st.ok()) return st;
  }
  if (s.fullcapture_port_hi != 0 && s.fullcapture_port_lo > s.fullcapture_port_hi) {
    return FieldError("fullcapture_port_lo", "is above fullcapture_port_hi");
  }
  return absl::OkStatus();
}

}  // namespace kestrel::pman
