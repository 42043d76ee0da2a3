#include "bench/rules_stage.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "agent/rules/run_rules.h"

namespace kestrel::bench {
namespace {

engine::ThreadTableOptions TableOptions() {
  engine::ThreadTableOptions options;
  options.proc_fallback = false;  // no /proc read inside the measured loop
  return options;
}

}  // namespace

RulesStage::RulesStage() : table_(TableOptions()) {}

absl::StatusOr<std::unique_ptr<RulesStage>> RulesStage::Make(const std::vector<std::string>& paths,
                                                             bool rule_by_rule) {
  auto stage = std::unique_ptr<RulesStage>(new RulesStage());
  agent::outputs::OutputsConfig config;
  config.stdout_enabled = false;  // alerts are rendered, then go nowhere
  absl::StatusOr<std::unique_ptr<agent::outputs::AlertOutputs>> outputs =
      agent::outputs::AlertOutputs::Start(config);
  if (!outputs.ok()) return outputs.status();
  stage->outputs_ = *std::move(outputs);
  stage->pipeline_ = std::make_unique<agent::RunPipeline>(
      stage->registry_, stage->table_, *stage->outputs_, 0, /*first_only=*/false);
  if (!paths.empty()) {
    agent::RunRulesOptions options;
    options.paths = paths;
    std::vector<engine::rules::Diagnostic> diags;
    absl::StatusOr<std::unique_ptr<agent::RunRules>> rules =
        agent::LoadRunRules(options, stage->registry_, diags);
    if (!rules.ok()) {
      std::string detail;
      for (const engine::rules::Diagnostic& d : diags) {
        if (d.severity == engine::rules::Diagnostic::Severity::kError) {
          detail = absl::StrCat(": ", d.ToString());
          break;
        }
      }
      return absl::Status(rules.status().code(), absl::StrCat(rules.status().message(), detail));
    }
    (*rules)->ruleset->SetRuleByRule(rule_by_rule);
    stage->evaluated_ = (*rules)->evaluated;
    stage->pipeline_->SetRules(std::shared_ptr<const agent::RunRules>(*std::move(rules)));
  }
  stage->table_.SeedFromProc();
  return stage;
}

size_t RulesStage::evaluated_rules() const { return evaluated_; }

}  // namespace kestrel::bench
