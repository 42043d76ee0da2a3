// Events of a container whose metadata had not arrived yet, held for the
// rules that read that metadata: a container's first process often runs
// before its runtime answers (Podman answers only once the start is over),
// and rules such as "a privileged container started" are about exactly
// that event. Those rules judge it once the metadata is there, or with
// what is known once it will not come (the runtime answered nothing, or
// took longer than kPatience): a miss is never final before then, and a
// rule's `not container.image in (...)` exception is not taken as passed
// while the image is unknown. Bounded in count and bytes: past that, an
// event is judged at once, with what is known.
#ifndef KESTREL_AGENT_PIPELINE_HELD_EVENTS_H_
#define KESTREL_AGENT_PIPELINE_HELD_EVENTS_H_

#include <chrono>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/functional/function_ref.h"
#include "agent/rules/run_rules.h"
#include "engine/containers/metadata_cache.h"
#include "engine/state/fd_info.h"
#include "engine/state/thread_info.h"

namespace kestrel::agent {

struct HeldEvent {
  std::vector<uint8_t> record;  // the record's bytes, header first
  // The thread and descriptor as they were at the event; ancestors are
  // looked up as they are when judged.
  engine::ThreadInfo thread;
  std::optional<engine::FdInfo> fd;
  uint64_t num = 0;          // evt.num
  std::string container_id;  // 64 hex digits
  std::shared_ptr<const RunRules> rules;
  std::vector<uint32_t> rule_indexes;  // into rules->ruleset->rules()
  std::chrono::steady_clock::time_point held_at;
};

class HeldEvents {
 public:
  // Longer than a runtime's slowest answer (2 s per socket asked).
  static constexpr std::chrono::seconds kPatience{10};
  static constexpr size_t kMaxEvents = 1024;
  static constexpr size_t kMaxBytes = size_t{16} << 20;

  struct Counters {
    uint64_t held = 0;
    uint64_t with_metadata = 0;     // judged once it arrived
    uint64_t without_metadata = 0;  // judged once it would not come
    uint64_t not_held = 0;          // over the bounds: judged at once
  };

  // False (and counted) when over the bounds.
  bool Hold(HeldEvent event);

  // Calls `judge` for, and lets go of, each held event whose container's
  // metadata arrived or will not come, oldest first; with `flush`, for all.
  void Release(engine::containers::ContainerMetadataCache& cache,
               std::chrono::steady_clock::time_point now, bool flush,
               absl::FunctionRef<void(const HeldEvent&)> judge);

  bool empty() const { return events_.empty(); }
  const Counters& counters() const { return counters_; }

 private:
  std::deque<HeldEvent> events_;
  size_t bytes_ = 0;
  Counters counters_;
};

}  // namespace kestrel::agent

#endif  // KESTREL_AGENT_PIPELINE_HELD_EVENTS_H_
