#include "kestrel/common/describe_rules.h"

#include <cstdio>

#include "absl/strings/str_format.h"
#include "kestrel/common/cli_app.h"

namespace kestrel::cli {

int PrintRulesDescription(const agent::Agent& agent, const std::optional<std::string>& rule,
                          std::optional<bool> json, std::string_view who) {
  absl::StatusOr<std::string> text =
      agent.DescribeRules(rule ? std::optional<std::string_view>(*rule) : std::nullopt, json);
  if (!text.ok()) {
    absl::FPrintF(stderr, "%s: %s\n", who, text.status().message());
    return absl::IsNotFound(text.status()) ? kExitUsage : kExitFailure;
  }
  std::fputs(text->c_str(), stdout);
  return kExitOk;
}

}  // namespace kestrel::cli
