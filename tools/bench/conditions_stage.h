// The engine's third bench stage: decode, state and a few representative
// conditions evaluated on every record, as a live engine runs them.
#ifndef KESTREL_TOOLS_BENCH_CONDITIONS_STAGE_H_
#define KESTREL_TOOLS_BENCH_CONDITIONS_STAGE_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/decode/record_view.h"
#include "engine/fields/field_extractor.h"
#include "engine/fields/field_registry.h"
#include "engine/filter/filter_program.h"
#include "engine/state/thread_table.h"

namespace kestrel::bench {

class ConditionsStage {
 public:
  // An `in` list, a `pmatch`, a regex, any ancestor's name, a `startswith`.
  static constexpr int kConditionCount = 5;

  // Compiles the conditions and seeds a thread table from /proc.
  static absl::StatusOr<std::unique_ptr<ConditionsStage>> Make();

  // Decodes `view`, applies it to the table and evaluates every condition.
  void Visit(const engine::RecordView& view);

  // How many (event, condition) pairs matched: keeps the work observable.
  uint64_t matches() const { return matches_; }

 private:
  ConditionsStage();

  engine::ThreadTable table_;
  engine::fields::FieldRegistry registry_;
  engine::fields::FieldExtractor extractor_;
  engine::filter::FilterProgram program_;
  std::vector<engine::filter::FilterProgram::ConditionId> ids_;
  uint64_t num_ = 0;
  uint64_t matches_ = 0;
};

}  // namespace kestrel::bench

#endif  // KESTREL_TOOLS_BENCH_CONDITIONS_STAGE_H_
