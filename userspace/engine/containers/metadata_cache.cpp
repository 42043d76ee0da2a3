#include "engine/containers/metadata_cache.h"

#include <utility>

#include "engine/containers/docker_events.h"

namespace kestrel::engine::containers {

ContainerMetadataCache::ContainerMetadataCache(Options options) : options_(std::move(options)) {
  thread_ = std::thread([this] { Loop(); });
  for (const std::unique_ptr<RuntimeSource>& source : options_.sources) {
    event_threads_.emplace_back([this, &source = *source] { FollowEvents(source); });
  }
}

ContainerMetadataCache::~ContainerMetadataCache() {
  {
    const std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();
  for (std::thread& t : event_threads_) t.join();
}

ContainerMetadataCache::Entry& ContainerMetadataCache::Want(const std::string& id) {
  auto [it, added] = entries_.try_emplace(id);
  if (added) {
    it->second.queued = true;
    queue_.push_back(id);
    wake_.notify_all();
  }
  return it->second;
}

std::shared_ptr<const ContainerMetadata> ContainerMetadataCache::Find(const std::string& id) {
  const std::lock_guard<std::mutex> lock(mu_);
  return Want(id).metadata;
}

bool ContainerMetadataCache::Asking(const std::string& id) const {
  const std::lock_guard<std::mutex> lock(mu_);
  auto it = entries_.find(id);
  return it == entries_.end() || !it->second.answered;
}

void ContainerMetadataCache::OnChange(ContainerChange change, const std::string& id) {
  if (!IsContainerId(id)) return;
  const std::lock_guard<std::mutex> lock(mu_);
  if (change == ContainerChange::kCreated) {
    Want(id);
  } else if (entries_.erase(id) > 0) {
    ++counters_.evicted;
  }
}

void ContainerMetadataCache::FollowEvents(RuntimeSource& source) {
  const auto stop = [this] {
    const std::lock_guard<std::mutex> lock(mu_);
    return stopping_;
  };
  const auto on_change = [this](ContainerChange change, const std::string& id) {
    OnChange(change, id);
  };
  while (!stop()) {
    // A runtime without an event stream (containerd before 1.7): its
    // containers are fetched when first seen, and rechecked.
    if (absl::IsUnimplemented(source.Follow(on_change, stop))) return;
    // The stream ended (the runtime restarted): again in a few seconds.
    std::unique_lock<std::mutex> lock(mu_);
    wake_.wait_for(lock, std::chrono::seconds(3), [this] { return stopping_; });
  }
}

ContainerMetadataCache::Counters ContainerMetadataCache::counters() const {
  const std::lock_guard<std::mutex> lock(mu_);
  Counters c = counters_;
  c.cached = 0;
  for (const auto& [id, e] : entries_) c.cached += e.metadata != nullptr;
  return c;
}

void ContainerMetadataCache::Fetch(const std::string& id) {
  bool unknown_everywhere = true;
  for (const std::unique_ptr<RuntimeSource>& source : options_.sources) {
    absl::StatusOr<ContainerMetadata> parsed = source->Inspect(id);
    // Another runtime may know it; an answer that does not parse is final.
    if (!parsed.ok() && !absl::IsInvalidArgument(parsed.status())) {
      if (!absl::IsNotFound(parsed.status())) unknown_everywhere = false;
      continue;
    }
    const std::lock_guard<std::mutex> lock(mu_);
    // Removed while it was being asked about: the answer is stale.
    auto it = entries_.find(id);
    if (it == entries_.end()) return;
    Entry& e = it->second;
    e.queued = false;
    e.answered = true;
    e.next_check = Clock::now() + options_.recheck;
    if (!parsed.ok()) {
      ++counters_.failed;
      return;
    }
    ++counters_.fetched;
    e.metadata = std::make_shared<const ContainerMetadata>(*std::move(parsed));
    // A pod's container: its sandbox holds the pod's labels and address.
    const std::string sandbox = e.metadata->pod_sandbox_id;
    if (IsContainerId(sandbox) && sandbox != id) Want(sandbox);  // last: it may move `e`
    return;
  }
  const std::lock_guard<std::mutex> lock(mu_);
  auto it = entries_.find(id);
  if (it == entries_.end()) return;
  if (unknown_everywhere && it->second.metadata) {
    // It was known and no runtime knows it now: gone.
    ++counters_.evicted;
    entries_.erase(it);
    return;
  }
  ++(unknown_everywhere ? counters_.unknown : counters_.failed);
  it->second.queued = false;
  it->second.answered = true;
  it->second.next_check = Clock::now() + options_.recheck;
}

void ContainerMetadataCache::Loop() {
  std::unique_lock<std::mutex> lock(mu_);
  while (!stopping_) {
    if (queue_.empty()) {
      // Wake for a request, or to look at what is due for a check again.
      wake_.wait_for(lock, std::chrono::seconds(1));
      const Clock::time_point now = Clock::now();
      for (auto& [id, e] : entries_) {
        if (!e.queued && e.next_check <= now) {
          e.queued = true;
          queue_.push_back(id);
        }
      }
      continue;
    }
    const std::string id = std::move(queue_.front());
    queue_.pop_front();
    lock.unlock();
    Fetch(id);
    lock.lock();
  }
}

}  // namespace kestrel::engine::containers
