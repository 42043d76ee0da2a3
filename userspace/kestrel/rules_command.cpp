#include "rules_command.h"

#include <cstdio>
#include <memory>
#include <optional>

#include "absl/strings/str_cat.h"
#include "cli_app.h"
#include "engine/fields/field_registry.h"
#include "engine/output/escape.h"
#include "engine/rules/ruleset.h"
#include "run_container_runtimes.h"
#include "run_rules.h"

namespace kestrel::cli {
namespace {

// Rules files may come from anywhere: their text is printed escaped.
std::string Escaped(std::string_view s) {
  std::string out;
  engine::AppendTextEscaped(out, s);
  return out;
}

// Loads as `kestrel run` does, outputs included: a file that validates
// also starts.
int RunValidate(const RulesOptions& options) {
  engine::fields::FieldRegistry fields;
  if (!AnsweringRuntimeSockets(RunConfig{}).empty()) {
    fields.SetFilled(engine::fields::FieldSource::kContainerRuntime);
  }
  std::vector<engine::rules::Diagnostic> diags;
  RunRulesOptions load;
  load.paths = options.files;
  load.strict = options.strict;
  absl::StatusOr<std::unique_ptr<RunRules>> loaded = LoadRunRules(load, fields, diags);
  size_t errors = 0;
  for (const engine::rules::Diagnostic& d : diags) {
    errors += d.severity == engine::rules::Diagnostic::Severity::kError;
    std::printf("%s\n", Escaped(d.ToString()).c_str());
  }
  if (!loaded.ok()) {
    std::printf("invalid: %zu %s\n", errors, errors == 1 ? "error" : "errors");
    return kExitFailure;
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
  validate->add_option("FILE", options.files, "rules files or directories, in load order")
      ->required();
  validate->add_flag("--strict", options.strict,
                     "a rule naming a field Kestrel lacks is an error, not a skipped rule");
}

int RunRulesVerb(const std::vector<std::string>& args) {
  std::unique_ptr<CLI::App> app =
      MakeVerbApp("rules",
                  "Checks Falco-format rules files without capturing.\n"
                  "Exit codes: 0 the files are valid (warnings, such as rules skipped for a\n"
                  "field Kestrel lacks, do not count); 1 an error was found; 2 usage error.",
                  "kestrel rules validate rules/kestrel_rules.yaml");
  RulesOptions options;
  DefineRulesOptions(*app, options);
  if (std::optional<int> done = ParseVerb(*app, args)) return *done;
  return RunValidate(options);
}

}  // namespace kestrel::cli
