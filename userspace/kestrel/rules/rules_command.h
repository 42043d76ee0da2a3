// `kestrel rules validate FILE...`: loads rules files as `kestrel run` would,
// without capturing, and prints what loaded, what was skipped and why.
// `kestrel rules describe [RULE]`: what loaded, rule by rule (Falco's -L).
#ifndef KESTREL_CLI_RULES_COMMAND_H_
#define KESTREL_CLI_RULES_COMMAND_H_

#include <optional>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"

namespace kestrel::cli {

struct RulesOptions {
  std::string action;               // the sub-command given: "validate" or "describe"
  std::vector<std::string> files;   // files or directories, in load order
  std::optional<std::string> rule;  // describe: this rule alone
  bool json = false;                // describe: JSON instead of text
  bool strict = false;              // a rule naming a missing field is an error
  // As `kestrel run` takes them: which container runtimes answer decides
  // which fields count as filled; rules_files is read when no file is given.
  std::optional<std::string> config;
  std::vector<std::string> overrides;
};

inline constexpr char kRulesDescription[] = "check or describe rules files without capturing";

void DefineRulesOptions(CLI::App& app, RulesOptions& options);

int RunRulesVerb(const std::vector<std::string>& args);

}  // namespace kestrel::cli

#endif  // KESTREL_CLI_RULES_COMMAND_H_
