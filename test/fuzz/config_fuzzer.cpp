// Arbitrary text as `kestrel run`'s config file, then each of its lines as
// a `-o key=value` override on top: unknown keys, nested sections that are
// not mappings, values of the wrong YAML kind, anchors and aliases.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/str_split.h"
#include "agent/config/run_config.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  kestrel::agent::RunConfig config;
  std::vector<std::string> warnings;
  (void)kestrel::agent::LoadRunConfigText(text, "fuzz.yaml", config, warnings);
  for (absl::string_view line : absl::StrSplit(absl::string_view(text.data(), text.size()), '\n')) {
    if (line.find('=') == absl::string_view::npos) continue;
    (void)kestrel::agent::ApplyRunOverride(std::string_view(line.data(), line.size()), config);
  }
  return 0;
}
