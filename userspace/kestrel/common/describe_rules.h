// What `kestrel rules describe` and `kestrel run -L / -l RULE` print: the
// agent's description of the rules it loaded (Agent::DescribeRules), on
// stdout.
#ifndef KESTREL_CLI_DESCRIBE_RULES_H_
#define KESTREL_CLI_DESCRIBE_RULES_H_

#include <optional>
#include <string>
#include <string_view>

#include "agent/agent.h"

namespace kestrel::cli {

// Prints every rule, macro and list (or the rule `rule` alone), as text or
// JSON (`json` unset: as the config's json_output says). A name no loaded rule has: one line on
// stderr, "WHO: no rule is named "X"", and kExitUsage; otherwise kExitOk.
int PrintRulesDescription(const agent::Agent& agent, const std::optional<std::string>& rule,
                          std::optional<bool> json, std::string_view who);

}  // namespace kestrel::cli

#endif  // KESTREL_CLI_DESCRIBE_RULES_H_
