#include "agent/rules/run_rules.h"

#include <sys/syscall.h>

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace kestrel::agent {
namespace {

// Whether `rule` can match a syscall whose record carries the path of the
// file it opened (KESTREL_OMIT_OPEN_PATH).
bool CanMatchAnOpen(const engine::rules::Rule& rule) {
  if (rule.any_syscall) return true;
  return std::any_of(rule.syscalls.begin(), rule.syscalls.end(), [](uint32_t id) {
    return id == SYS_open || id == SYS_openat || id == SYS_openat2 || id == SYS_creat;
  });
}

}  // namespace

absl::StatusOr<std::unique_ptr<RunRules>> LoadRunRules(
    const RunRulesOptions& options, const engine::filter::FieldResolver& fields,
    std::vector<engine::rules::Diagnostic>& diags) {
  auto loaded = std::make_unique<RunRules>();
  // append_output's entries are checked alone first, so that a bad field
  // is named once, with its entry, not once for every rule it matches.
  if (absl::Status s = engine::alerts::CheckAppendOutput(options.append_output, fields); !s.ok()) {
    diags.push_back(
        {engine::rules::Diagnostic::Severity::kError, "", 0, 0, "", std::string(s.message())});
    return s;
  }
  // The conditions are compiled through the recorder. Of the outputs, only
  // what a rule that can match an open prints of its path counts: the I/O
  // data a rule merely prints does not make the probe copy more.
  FieldNeedsRecorder recorder(fields);
  engine::rules::LoadOptions load_options;
  load_options.strict = options.strict;
  load_options.max_file_bytes = options.max_file_bytes;
  load_options.cancelled = options.cancelled;
  load_options.describe = options.describe;
  absl::StatusOr<std::unique_ptr<engine::rules::Ruleset>> ruleset =
      engine::rules::Ruleset::Load(options.paths, options.texts, load_options, recorder, &diags);
  if (!ruleset.ok()) return ruleset.status();
  loaded->ruleset = *std::move(ruleset);
  for (const auto& [name, on] : options.enabled_by_name)
    loaded->ruleset->SetEnabledByName(name, on);
  loaded->ruleset->SetMinimumPriority(options.minimum_priority);
  loaded->needs = recorder.needs();

  bool output_errors = false;
  for (const engine::rules::Rule& rule : loaded->ruleset->rules()) {
    if (load_options.Cancelled()) return absl::CancelledError("the load was cancelled");
    FieldNeedsRecorder printed(fields);
    const engine::alerts::AppendedOutput appended = engine::alerts::ApplyAppendOutput(
        options.append_output, rule.name, rule.source, rule.tags, rule.output);
    absl::StatusOr<engine::alerts::OutputFormat> format =
        engine::alerts::OutputFormat::Compile(appended.output, printed, appended.extra_fields);
    if (!format.ok()) {
      diags.push_back({engine::rules::Diagnostic::Severity::kError, rule.file, rule.line, 0,
                       absl::StrCat("rule '", rule.name, "'"),
                       absl::StrCat("output: ", format.status().message())});
      output_errors = true;
      // A placeholder keeps the outputs indexed like the rules.
      loaded->outputs.push_back(*engine::alerts::OutputFormat::Compile("", fields));
      continue;
    }
    loaded->outputs.push_back(*std::move(format));
    if (!rule.enabled || !rule.compiled ||
        !engine::rules::AtLeast(rule.priority, options.minimum_priority)) {
      continue;
    }
    ++loaded->evaluated;
    if (printed.needs().open_paths && CanMatchAnOpen(rule)) loaded->needs.open_paths = true;
    // Failed calls matter when an evaluated rule can match one, named result
    // field or not (evt.type = connect matches an EINPROGRESS).
    if (rule.matches_failed && !options.drop_failed_exit) loaded->needs.result = true;
    loaded->syscalls.push_back({rule.name, rule.syscalls, rule.any_syscall, rule.priority});
  }
  if (output_errors) {
    return absl::InvalidArgumentError("a rule's output names a field Kestrel does not have");
  }
  if (loaded->evaluated == 0) {
    // A monitor with nothing to evaluate raises nothing, ever: say it.
    const std::string where = absl::StrJoin(options.paths, ", ");
    const char* why = "no rule is evaluated: the monitor would raise no alert";
    if (options.strict) {
      diags.push_back({engine::rules::Diagnostic::Severity::kError, where, 0, 0, "", why});
      return absl::InvalidArgumentError(why);
    }
    diags.push_back({engine::rules::Diagnostic::Severity::kWarning, where, 0, 0, "", why});
  }
  return loaded;
}

std::string DescribeRunRules(const RunRules& rules) {
  return absl::StrCat(rules.ruleset->rules().size(), " rules loaded (", rules.evaluated,
                      " evaluated), ", rules.ruleset->skipped(), " skipped");
}

}  // namespace kestrel::agent
