#include "settings_keys.h"

#include <algorithm>
#include <cstdint>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "shared/record_format.h"

namespace kestrel::cli {
namespace {

// This absl predates std::string_view interop.
absl::string_view Absl(std::string_view s) { return absl::string_view(s.data(), s.size()); }

std::vector<std::string> Split(std::string_view text, char sep) {
  return absl::StrSplit(Absl(text), sep);
}

absl::Status KeyError(std::string_view key, std::string_view value, std::string_view accepts) {
  return absl::InvalidArgumentError(
      absl::StrFormat("%s=%s: %s expects %s", key, value, key, accepts));
}

template <typename T>
bool ParseUnsigned(std::string_view text, T max, T* out) {
  uint64_t v = 0;
  if (!absl::SimpleAtoi(Absl(text), &v) || v > max) return false;
  *out = static_cast<T>(v);
  return true;
}

bool ParseBool(std::string_view text, uint8_t* out) {
  if (text == "1" || text == "true" || text == "on") {
    *out = 1;
    return true;
  }
  if (text == "0" || text == "false" || text == "off") {
    *out = 0;
    return true;
  }
  return false;
}

// "a,b,c" into exactly N slots, 0-filled; "" or "none" empties the set.
template <typename T, size_t N>
bool ParseIdSet(std::string_view text, T (&slots)[N]) {
  T parsed[N] = {};
  if (text != "" && text != "none") {
    size_t n = 0;
    for (const std::string& item : Split(text, ',')) {
      if (n == N || !ParseUnsigned<T>(item, UINT64_MAX >> (64 - 8 * sizeof(T)), &parsed[n]) ||
          parsed[n] == 0) {
        return false;
      }
      ++n;
    }
  }
  std::copy(std::begin(parsed), std::end(parsed), std::begin(slots));
  return true;
}

template <typename T, size_t N>
std::string FormatIdSet(const T (&slots)[N]) {
  std::vector<T> ids;
  for (T v : slots) {
    if (v != 0) ids.push_back(v);
  }
  return ids.empty() ? std::string("none") : absl::StrJoin(ids, ",");
}

}  // namespace

const std::vector<std::string>& SettingKeys() {
  static const std::vector<std::string> keys = {
      "snaplen",           "drop_failed",  "dropping_mode",  "sampling_ratio",
      "own_tgid",          "target_tgid",  "target_tgids",   "target_cgroups",
      "fullcapture_ports", "boot_time_ns", "capture_io_data"};
  return keys;
}

absl::StatusOr<std::string> FormatSetting(const kestrel_capture_settings& s, std::string_view key) {
  if (key == "snaplen") return absl::StrCat(s.snaplen);
  if (key == "drop_failed") return absl::StrCat(s.drop_failed);
  if (key == "dropping_mode") return absl::StrCat(s.dropping_mode);
  if (key == "capture_io_data") return absl::StrCat(s.capture_io_data);
  if (key == "sampling_ratio") return absl::StrCat(s.sampling_ratio);
  if (key == "own_tgid") return absl::StrCat(s.own_tgid);
  if (key == "target_tgid") return absl::StrCat(s.target_tgid);
  if (key == "target_tgids") return FormatIdSet(s.target_tgids);
  if (key == "target_cgroups") return FormatIdSet(s.target_cgroups);
  if (key == "fullcapture_ports") {
    if (s.fullcapture_port_hi == 0) return std::string("none");
    return absl::StrCat(s.fullcapture_port_lo, "-", s.fullcapture_port_hi);
  }
  if (key == "boot_time_ns") return absl::StrCat(s.boot_time_ns);
  return absl::InvalidArgumentError(absl::StrFormat("unknown setting \"%s\"; known: %s", key,
                                                    absl::StrJoin(SettingKeys(), ", ")));
}

absl::Status ApplySetting(kestrel_capture_settings& s, std::string_view key,
                          std::string_view value) {
  kestrel_capture_settings next = s;
  bool ok = false;
  std::string accepts;
  if (key == "snaplen") {
    ok = ParseUnsigned<uint32_t>(value, KESTREL_MAX_RECORD_BYTES, &next.snaplen);
    accepts = "a byte count up to 65536";
  } else if (key == "drop_failed" || key == "dropping_mode" || key == "capture_io_data") {
    ok = ParseBool(value, key == "drop_failed"     ? &next.drop_failed
                          : key == "dropping_mode" ? &next.dropping_mode
                                                   : &next.capture_io_data);
    accepts = "0 or 1";
  } else if (key == "sampling_ratio") {
    ok = ParseUnsigned<uint32_t>(value, UINT32_MAX, &next.sampling_ratio) &&
         next.sampling_ratio >= 1;
    accepts = "N >= 1 (keep 1 in N)";
  } else if (key == "own_tgid" || key == "target_tgid") {
    ok = ParseUnsigned<uint32_t>(value, UINT32_MAX,
                                 key == "own_tgid" ? &next.own_tgid : &next.target_tgid);
    accepts = "a process id (0 = none)";
  } else if (key == "target_tgids") {
    ok = ParseIdSet(value, next.target_tgids);
    accepts =
        absl::StrFormat("up to %d comma-separated process ids, or none", KESTREL_MAX_TARGET_TGIDS);
  } else if (key == "target_cgroups") {
    ok = ParseIdSet(value, next.target_cgroups);
    accepts =
        absl::StrFormat("up to %d comma-separated cgroup ids, or none", KESTREL_MAX_TARGET_CGROUPS);
  } else if (key == "fullcapture_ports") {
    accepts = "LO-HI (ports, 1 <= HI, LO <= HI) or none";
    if (value == "none") {
      next.fullcapture_port_lo = 0;
      next.fullcapture_port_hi = 0;
      ok = true;
    } else {
      std::vector<std::string> parts = Split(value, '-');
      ok = parts.size() == 2 &&
           ParseUnsigned<uint16_t>(parts[0], UINT16_MAX, &next.fullcapture_port_lo) &&
           ParseUnsigned<uint16_t>(parts[1], UINT16_MAX, &next.fullcapture_port_hi) &&
           next.fullcapture_port_hi != 0 && next.fullcapture_port_lo <= next.fullcapture_port_hi;
    }
  } else if (key == "boot_time_ns") {
    return absl::InvalidArgumentError("boot_time_ns is read-only: the probe sets it at load");
  } else {
    return FormatSetting(s, key).status();
  }
  if (!ok) return KeyError(key, value, accepts);
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

}  // namespace kestrel::cli
