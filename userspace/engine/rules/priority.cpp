#include "engine/rules/priority.h"

#include <array>
#include <string>

#include "absl/strings/ascii.h"

namespace kestrel::engine::rules {
namespace {

constexpr std::array<std::string_view, 8> kNames = {
    "Emergency", "Alert", "Critical", "Error", "Warning", "Notice", "Informational", "Debug",
};

}  // namespace

std::string_view PriorityName(Priority p) { return kNames[static_cast<size_t>(p)]; }

std::optional<Priority> ParsePriority(std::string_view text) {
  std::string lower = absl::AsciiStrToLower(absl::string_view(text.data(), text.size()));
  if (lower == "info") return Priority::kInformational;
  for (size_t i = 0; i < kNames.size(); ++i) {
    if (lower == absl::AsciiStrToLower(absl::string_view(kNames[i].data(), kNames[i].size()))) {
      return static_cast<Priority>(i);
    }
  }
  return std::nullopt;
}

}  // namespace kestrel::engine::rules
