#include "kestrel/common/cli_validators.h"

#include <cmath>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "engine/decode/syscall_names.h"
#include "kestrel/common/cli_app.h"

namespace kestrel::cli {
namespace {

// "not a", "neither a nor b", "not a, b or c".
std::string ChoiceList(const std::vector<std::string>& choices) {
  if (choices.size() == 1) return "not " + choices[0];
  if (choices.size() == 2) return absl::StrFormat("neither %s nor %s", choices[0], choices[1]);
  std::vector<std::string> head(choices.begin(), choices.end() - 1);
  return absl::StrFormat("not %s or %s", absl::StrJoin(head, ", "), choices.back());
}

}  // namespace

CLI::Validator WholeNumber(uint64_t min, uint64_t max, std::string below_min) {
  if (below_min.empty()) below_min = absl::StrFormat("must be at least %u", min);
  return CLI::Validator(
      [=](std::string& text) -> std::string {
        uint64_t n = 0;
        // SimpleAtoi takes a leading '+' or spaces; a flag value should not.
        if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos ||
            !absl::SimpleAtoi(text, &n)) {
          return Quote(text) + " is not a whole number";
        }
        if (n < min) return below_min;
        if (n > max) return absl::StrFormat("%s is more than %u", Quote(text), max);
        return "";
      },
      "");
}

CLI::Validator Seconds(double max_seconds, std::string max_words) {
  return CLI::Validator(
      [=](std::string& text) -> std::string {
        double seconds = 0;
        if (!absl::SimpleAtod(text, &seconds) || !std::isfinite(seconds) || !(seconds > 0)) {
          return Quote(text) + " is not a positive number of seconds";
        }
        if (seconds > max_seconds) {
          return absl::StrFormat("%s is more than %s (%.0f seconds)", Quote(text), max_words,
                                 max_seconds);
        }
        return "";
      },
      "");
}

CLI::Validator OneOf(std::vector<std::string> choices) {
  return CLI::Validator(
      [choices = std::move(choices)](std::string& text) -> std::string {
        for (const std::string& c : choices) {
          if (text == c) return "";
        }
        return absl::StrFormat("%s is %s", Quote(text), ChoiceList(choices));
      },
      "");
}

CLI::Validator SyscallNames() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        absl::StatusOr<std::vector<uint32_t>> ids = engine::ParseSyscallList(text);
        return ids.ok() ? "" : std::string(ids.status().message());
      },
      "");
}

}  // namespace kestrel::cli
