// Arbitrary text as `kestrel settings set` assignments (one per line,
// KEY=VALUE): unknown keys, numbers out of range or of the wrong base,
// sizes with suffixes, empty values.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "agent/probe/settings_keys.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> lines = absl::StrSplit(text, '\n');
  kestrel_capture_settings settings{};
  auto applied = kestrel::agent::ApplyAssignments(settings, lines);
  if (applied.ok()) {
    for (const std::string& key : kestrel::agent::SettingKeys()) {
      (void)kestrel::agent::FormatSetting(*applied, key);
    }
  }
  return 0;
}
