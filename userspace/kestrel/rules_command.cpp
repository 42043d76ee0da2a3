#include "rules_command.h"

#include <cstdio>
#include <memory>
#include <optional>

#include "absl/strings/str_cat.h"
#include "cli_app.h"
#include "engine/fields/field_registry.h"
#include "engine/output/escape.h"
#include "engine/rules/ruleset.h"
#include "run_config.h"
#include "run_container_runtimes.h"
#include "run_default_rules.h"
#include "run_rules.h"

namespace kestrel::cli {
namespace {

// Rules files may come from anywhere: their text is printed escaped.
std::string Escaped(std::string_view s) {
  std::string out;
  engine::AppendTextEscaped(out, s);
  return out;
}

// -c then each -o, as `kestrel run` reads them; the exit code on failure.
std::optional<int> ReadConfig(const CLI::App& app, const RulesOptions& options, RunConfig& config) {
  if (options.config) {
    std::vector<std::string> warnings;
    const absl::Status s = LoadRunConfigFile(*options.config, config, warnings);
    for (const std::string& w : warnings) std::printf("%s\n", Escaped(w).c_str());
    if (!s.ok()) return UsageError(app, std::string(s.message()));
  }
  for (const std::string& o : options.overrides) {
    if (absl::Status s = ApplyRunOverride(o, config); !s.ok())
      return UsageError(app, std::string(s.message()));
  }
  if (absl::Status s = CheckRunConfig(config); !s.ok())
    return UsageError(app, std::string(s.message()));
  return std::nullopt;
}

// Loads as `kestrel run` does, outputs included: a file that validates
// also starts.
int RunValidate(const CLI::App& app, const RulesOptions& options) {
  RunConfig config;
  if (std::optional<int> failed = ReadConfig(app, options, config)) return *failed;
  engine::fields::FieldRegistry fields;
  if (!AnsweringRuntimes(config).empty()) {
    fields.SetFilled(engine::fields::FieldSource::kContainerRuntime);
  }
  std::vector<engine::rules::Diagnostic> diags;
  RunRulesOptions load;
  load.paths = !options.files.empty()        ? options.files
               : !config.rules_files.empty() ? config.rules_files
                                             : std::vector<std::string>{DefaultRulesDir()};
  load.strict = options.strict;
  load.minimum_priority = config.priority;
  load.max_file_bytes = config.rules_file_max_bytes;
  absl::StatusOr<std::unique_ptr<RunRules>> loaded = LoadRunRules(load, fields, diags);
  size_t errors = 0;
  for (const engine::rules::Diagnostic& d : diags) {
    errors += d.severity == engine::rules::Diagnostic::Severity::kError;
    std::printf("%s\n", Escaped(d.ToString()).c_str());
  }
  if (!loaded.ok()) {
    std::printf("invalid: %zu %s\n", errors, errors == 1 ? "error" : "errors");
    return kExitUsage;  // as `run` exits on the same file
  }
  const engine::rules::Ruleset& set = *(*loaded)->ruleset;
  size_t enabled = 0;
  for (const engine::rules::Rule& r : set.rules()) enabled += r.enabled;
  std::printf("valid: %zu rules loaded (%zu enabled), %zu skipped\n", set.rules().size(), enabled,
              set.skipped());
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
}

int RunRulesVerb(const std::vector<std::string>& args) {
  std::unique_ptr<CLI::App> app =
      MakeVerbApp("rules",
                  "Checks Falco-format rules files without capturing.\n"
                  "Exit codes: 0 the files are valid (warnings, such as rules skipped for a\n"
                  "field Kestrel lacks, do not count); 2 an error was found, or a usage error.",
                  "kestrel rules validate rules/kestrel_rules.yaml");
  RulesOptions options;
  DefineRulesOptions(*app, options);
  if (std::optional<int> done = ParseVerb(*app, args)) return *done;
  return RunValidate(*app, options);
}

}  // namespace kestrel::cli
