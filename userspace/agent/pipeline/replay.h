// `kestrel run --replay FILE`: the rules judge a capture file's records as
// fast as the file reads, through the same RunPipeline as a live run, so
// the file gives the alerts the live run gave.
#ifndef KESTREL_AGENT_PIPELINE_REPLAY_H_
#define KESTREL_AGENT_PIPELINE_REPLAY_H_

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "agent/pipeline/pipeline.h"

#include "agent/outputs/alert_outputs.h"
#include "agent/rules/run_rules.h"
#include "engine/fields/field_registry.h"

namespace kestrel::agent {

struct ReplayResult {
  // Ok; NotFound or another error when the file cannot be opened;
  // DataLoss when it is damaged (its alerts up to the damage are out).
  absl::Status status;
  RunCounters counters;
  // For people, in order: the stats line, then where the damage is.
  std::vector<std::string> lines;
};

// Replays `path` against `rules` (resolved in `fields`), alerts to
// `outputs` (closed on return), the thread table bounded by
// `thread_table_size`.
ReplayResult ReplayCapture(const std::string& path, const engine::fields::FieldRegistry& fields,
                           std::shared_ptr<const RunRules> rules, bool first_only,
                           size_t thread_table_size, outputs::AlertOutputs& outputs);

}  // namespace kestrel::agent

#endif  // KESTREL_AGENT_PIPELINE_REPLAY_H_
