// Rules as `kestrel run` uses them: the loaded ruleset with each rule's
// output compiled, what the rules need from the probe (syscalls, settings),
// and the loading diagnostics.
#ifndef KESTREL_AGENT_RULES_RUN_RULES_H_
#define KESTREL_AGENT_RULES_RUN_RULES_H_

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "agent/rules/probe_settings.h"
#include "agent/rules/syscall_set.h"
#include "engine/alerts/append_output.h"
#include "engine/alerts/output_format.h"
#include "engine/filter/field_binding.h"
#include "engine/rules/diagnostic.h"
#include "engine/rules/ruleset.h"

namespace kestrel::agent {

struct RunRules {
  std::unique_ptr<engine::rules::Ruleset> ruleset;
  // By rule index (ruleset->rules()); only the evaluated rules' are used.
  std::vector<engine::alerts::OutputFormat> outputs;
  // What the evaluated rules' conditions read; `result` when one of them
  // can match a failed call.
  FieldNeeds needs;
  // The rules that are evaluated (enabled, compiled, at or above the
  // priority threshold) and the syscalls each can match.
  std::vector<RuleSyscalls> syscalls;
  size_t evaluated = 0;

  size_t IndexOf(const engine::rules::Rule& rule) const {
    return static_cast<size_t>(&rule - ruleset->rules().data());
  }
};

struct RunRulesOptions {
  std::vector<std::string> paths;
  // Rules given as text by an embedding program, loaded after the files.
  std::vector<engine::rules::Ruleset::Text> texts;
  // Rules enabled (true) or disabled by name once loaded, in order.
  std::vector<std::pair<std::string, bool>> enabled_by_name;
  bool strict = false;
  engine::rules::Priority minimum_priority = engine::rules::Priority::kDebug;
  size_t max_file_bytes = engine::rules::kDefaultMaxInputFileBytes;
  const std::atomic<bool>* cancelled = nullptr;  // see engine::rules::LoadOptions
  // engine.modern_ebpf.drop_failed_exit: drop failed calls in the probe
  // even when a rule could match one (Falco's key, off by default).
  bool drop_failed_exit = false;
  // Keep what DescribeRules prints (describe_rules.h).
  bool describe = false;
  // append_output: added to the outputs of the rules each entry matches.
  std::vector<engine::alerts::AppendOutput> append_output;
};

// Loads and compiles the rules. Every diagnostic (warnings too) is added to
// `diags`; an error in a rules file, a rule output or an append_output
// entry naming a field Kestrel lacks fails the load.
absl::StatusOr<std::unique_ptr<RunRules>> LoadRunRules(
    const RunRulesOptions& options, const engine::filter::FieldResolver& fields,
    std::vector<engine::rules::Diagnostic>& diags);

// "N rules loaded (E evaluated), S skipped from FILES".
std::string DescribeRunRules(const RunRules& rules);

}  // namespace kestrel::agent

#endif  // KESTREL_AGENT_RULES_RUN_RULES_H_
