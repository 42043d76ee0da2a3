// Falco's -L / -l and describe-rules JSON for the rules as loaded: every
// rule (or one) with its place, its condition as written and as compiled,
// its output's fields and the syscalls it is evaluated for; then the macros
// and lists with their expansion and whether a rule uses them. Every string
// from a rules file is escaped (agent/quote.h for text, JSON escaping).
#ifndef KESTREL_AGENT_RULES_DESCRIBE_RULES_H_
#define KESTREL_AGENT_RULES_DESCRIBE_RULES_H_

#include <optional>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "agent/rules/run_rules.h"

namespace kestrel::agent {

// `rules` was loaded with RunRulesOptions::describe. NotFoundError when
// `rule` names no loaded rule.
absl::StatusOr<std::string> DescribeRules(const RunRules& rules,
                                          std::optional<std::string_view> rule, bool json);

}  // namespace kestrel::agent

#endif  // KESTREL_AGENT_RULES_DESCRIBE_RULES_H_
