#include "agent/pipeline/held_events.h"

#include <utility>

namespace kestrel::agent {

bool HeldEvents::Hold(HeldEvent event) {
  if (events_.size() >= kMaxEvents || bytes_ + event.record.size() > kMaxBytes) {
    ++counters_.not_held;
    return false;
  }
  bytes_ += event.record.size();
  ++counters_.held;
  events_.push_back(std::move(event));
  return true;
}

void HeldEvents::Release(engine::containers::ContainerMetadataCache& cache,
                         std::chrono::steady_clock::time_point now, bool flush,
                         absl::FunctionRef<void(const HeldEvent&)> judge) {
  // Oldest first: alerts judged late about one container keep their order.
  for (auto it = events_.begin(); it != events_.end();) {
    if (cache.Find(it->container_id) != nullptr) {
      ++counters_.with_metadata;
    } else if (!flush && cache.Asking(it->container_id) && now - it->held_at < kPatience) {
      ++it;
      continue;
    } else {
      ++counters_.without_metadata;
    }
    judge(*it);
    bytes_ -= it->record.size();
    it = events_.erase(it);
  }
}

}  // namespace kestrel::agent
