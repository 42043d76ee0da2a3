// `kestrel run --replay FILE`: the rules judge a capture file's records as
// fast as the file reads, through the same RunPipeline as a live run, so
// the file gives the alerts the live run gave.
#ifndef KESTREL_CLI_RUN_REPLAY_H_
#define KESTREL_CLI_RUN_REPLAY_H_

#include <cstddef>
#include <memory>
#include <string>

#include "engine/alerts/alert_outputs.h"
#include "engine/fields/field_registry.h"
#include "run_rules.h"

namespace kestrel::cli {

// Replays `path` against `rules` (resolved in `fields`), alerts to
// `outputs` (closed on return), the thread table bounded by
// `thread_table_size`, then prints the stats line on stderr.
// Returns kExitOk; kExitFailure when the file cannot be opened, or is
// damaged: its alerts up to the damage are out, and one line on stderr
// says where it is and what was not read.
int RunReplay(const std::string& path, const engine::fields::FieldRegistry& fields,
              std::shared_ptr<const RunRules> rules, bool first_only, size_t thread_table_size,
              engine::alerts::AlertOutputs& outputs);

}  // namespace kestrel::cli

#endif  // KESTREL_CLI_RUN_REPLAY_H_
