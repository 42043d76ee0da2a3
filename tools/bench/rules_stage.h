// The engine's rules bench stage: the stored stream through `kestrel run`'s
// own pipeline (decode, state, the rules that can match each event, an
// alert rendered per match), with no output channel open.
#ifndef KESTREL_TOOLS_BENCH_RULES_STAGE_H_
#define KESTREL_TOOLS_BENCH_RULES_STAGE_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "agent/outputs/alert_outputs.h"
#include "agent/pipeline/pipeline.h"
#include "engine/fields/field_registry.h"
#include "engine/state/thread_table.h"
#include "shared/record_format.h"

namespace kestrel::bench {

class RulesStage {
 public:
  // Loads the rules files `paths` (no path: no rules, state only) and seeds
  // a thread table from /proc. `rule_by_rule` evaluates the rules one after
  // the other instead of through the ruleset's index (the reference path).
  static absl::StatusOr<std::unique_ptr<RulesStage>> Make(const std::vector<std::string>& paths,
                                                          bool rule_by_rule);

  void Visit(const kestrel_record_header* record) { pipeline_->Take(record); }

  size_t evaluated_rules() const;
  uint64_t alerts() const { return pipeline_->counters().AlertsTotal(); }

 private:
  RulesStage();

  engine::fields::FieldRegistry registry_;
  engine::ThreadTable table_;
  std::unique_ptr<agent::outputs::AlertOutputs> outputs_;
  std::unique_ptr<agent::RunPipeline> pipeline_;
  size_t evaluated_ = 0;
};

}  // namespace kestrel::bench

#endif  // KESTREL_TOOLS_BENCH_RULES_STAGE_H_
