#include "kestrel/rules/rules_command.h"

#include <cstdio>
#include <memory>
#include <optional>

#include "absl/strings/str_cat.h"
#include "agent/agent.h"
#include "agent/quote.h"
#include "kestrel/common/cli_app.h"
#include "kestrel/common/describe_rules.h"

namespace kestrel::cli {
namespace {

// Loads as `kestrel run` does (-c, each -o, the container runtimes that
// answer, outputs included): a file that validates also starts.
int RunValidate(const CLI::App& app, const RulesOptions& options) {
  if (absl::Status s = agent::CheckConfigAssignments(options.overrides); !s.ok()) {
    return UsageError(app, std::string(s.message()));
  }
  agent::AgentOptions load;
  load.describe_rules = options.action == "describe";
  load.config_file = options.config;
  load.config_keys = options.overrides;
  load.rules_files = options.files;
  load.strict = options.strict;
  size_t errors = 0;
  // The diagnostics, and the config's warnings; not the agent's progress.
  // describe prints the description alone on stdout: the diagnostics go
  // to stderr.
  FILE* diagnostics = options.action == "describe" ? stderr : stdout;
  load.log = [&errors, diagnostics](agent::LogLevel level, const std::string& line) {
    if (level == agent::LogLevel::kInfo) return;
    errors += level == agent::LogLevel::kError;
    // Rules files may come from anywhere: their text is printed escaped.
    std::fprintf(diagnostics, "%s\n", agent::Escaped(line).c_str());
  };
  absl::StatusOr<std::unique_ptr<agent::Agent>> loaded = agent::Agent::Open(std::move(load));
  if (!loaded.ok()) {
    if (errors == 0) return UsageError(app, std::string(loaded.status().message()));
    std::fprintf(diagnostics, "invalid: %zu %s\n", errors, errors == 1 ? "error" : "errors");
    return kExitUsage;  // as `run` exits on the same file
  }
  if (options.action == "describe") {
    return PrintRulesDescription(**loaded, options.rule,
                                 options.json ? std::optional<bool>(true) : std::nullopt,
                                 "kestrel rules describe");
  }
  const agent::AgentStats stats = (*loaded)->Stats();
  std::printf("valid: %lu rules loaded (%lu enabled), %lu skipped\n", stats.rules_loaded,
              stats.rules_enabled, stats.rules_skipped);
  return kExitOk;
}

}  // namespace

void DefineRulesOptions(CLI::App& app, RulesOptions& options) {
  app.require_subcommand(1, 1);
  CLI::App* validate =
      AddSubVerb(app, "validate",
                 "load rules files (a directory: its *.yaml and *.yml files, sorted by name) as "
                 "`kestrel run` would, print each error and warning as FILE:LINE:COLUMN: SEVERITY: "
                 "ITEM: MESSAGE, then how many rules loaded and were skipped",
                 "kestrel rules validate /etc/kestrel/rules.d");
  validate->parse_complete_callback([&options] { options.action = "validate"; });
  validate->add_option("FILE", options.files,
                       "rules files or directories, in load order (default: the config's "
                       "rules_files, else Kestrel's rules)");
  validate->add_flag("--strict", options.strict,
                     "a rule naming a field Kestrel lacks is an error, not a skipped rule");
  validate
      ->add_option("-c,--config", options.config,
                   "the config `kestrel run` would read: its container_engines sockets decide "
                   "which fields are filled here, its rules_files are the default FILEs")
      ->type_name("FILE")
      ->check(CLI::ExistingFile);
  validate
      ->add_option("-o,--option", options.overrides,
                   "set a config key, after -c, as `kestrel run -o` (repeatable)")
      ->type_name("KEY=VALUE")
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);

  CLI::App* describe = AddSubVerb(
      app, "describe",
      "load rules as `rules validate` does (diagnostics on stderr) and print every rule, or RULE "
      "alone, as Falco's -L does: name, description, priority, tags, source, enabled, FILE:LINE, "
      "the condition as written and compiled (macros and lists substituted, exceptions "
      "appended), the output's fields, the syscalls it is evaluated for; then each macro and "
      "list with its expansion and whether a rule uses it. Exit 2 when no rule is named RULE",
      "kestrel rules describe 'Terminal shell in container' -r rules/kestrel_rules.yaml --json");
  describe->parse_complete_callback([&options] { options.action = "describe"; });
  describe->add_option("RULE", options.rule, "the rule to describe (default: every rule)");
  describe
      ->add_option("-r,--rules", options.files,
                   "a rules file or directory (repeatable), in load order (default: the "
                   "config's rules_files, else Kestrel's rules)")
      ->type_name("FILE|DIR")
      ->check(CLI::ExistingPath)
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  describe->add_flag("--json", options.json,
                     "one JSON document, keys as Falco's describe-rules JSON (rules, macros, "
                     "lists, each with info and details); also with -o json_output=true");
  describe->add_flag("--strict", options.strict,
                     "a rule naming a field Kestrel lacks is an error, not a skipped rule");
  describe
      ->add_option("-c,--config", options.config,
                   "the config `kestrel run` would read (rules_files, container_engines)")
      ->type_name("FILE")
      ->check(CLI::ExistingFile);
  describe
      ->add_option("-o,--option", options.overrides,
                   "set a config key, after -c, as `kestrel run -o` (repeatable)")
      ->type_name("KEY=VALUE")
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
}

int RunRulesVerb(const std::vector<std::string>& args) {
  std::unique_ptr<CLI::App> app =
      MakeVerbApp("rules",
                  "Checks or describes Falco-format rules files without capturing.\n"
                  "Exit codes: 0 the files are valid (warnings, such as rules skipped for a\n"
                  "field Kestrel lacks, do not count); 2 an error was found, no rule has the\n"
                  "name given to describe, or a usage error.",
                  "kestrel rules validate rules/kestrel_rules.yaml");
  RulesOptions options;
  DefineRulesOptions(*app, options);
  if (std::optional<int> done = ParseVerb(*app, args)) return *done;
  return RunValidate(*app, options);
}

}  // namespace kestrel::cli
