// Container metadata fetched from the runtimes on a thread of its own and
// kept while the container lives. Each runtime's event stream is followed
// where it has one: a container is fetched when created, before its first
// process runs, and dropped when removed. The event path only looks up: a miss (a container
// created before Kestrel, or a runtime that told nothing) asks for a fetch
// and finds nothing, so the fields are absent for that event and present
// for the container's later ones. Each container is asked about again now
// and then: one no runtime knows any more is evicted.
#ifndef KESTREL_ENGINE_CONTAINERS_METADATA_CACHE_H_
#define KESTREL_ENGINE_CONTAINERS_METADATA_CACHE_H_

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "container_metadata.h"
#include "runtime_source.h"

namespace kestrel::engine::containers {

class ContainerMetadataCache {
 public:
  struct Options {
    // The runtimes, asked in order (runtime_source.h).
    std::vector<std::unique_ptr<RuntimeSource>> sources;
    // How often a known container is asked about again (evicted when gone),
    // and an unknown one retried.
    std::chrono::milliseconds recheck{std::chrono::seconds(30)};
  };

  struct Counters {
    uint64_t fetched = 0;  // inspect documents read
    uint64_t unknown = 0;  // ids no runtime knows
    uint64_t failed = 0;   // requests that failed otherwise
    uint64_t evicted = 0;  // containers gone
    size_t cached = 0;
  };

  explicit ContainerMetadataCache(Options options);
  ~ContainerMetadataCache();
  ContainerMetadataCache(const ContainerMetadataCache&) = delete;
  ContainerMetadataCache& operator=(const ContainerMetadataCache&) = delete;

  // The metadata of the container `id` (64 hex digits), or null when it has
  // not arrived (a fetch is then asked for). Never blocks on a runtime.
  std::shared_ptr<const ContainerMetadata> Find(const std::string& id);

  // Whether the runtimes have not answered about `id` yet: its metadata may
  // still arrive. False once known, or once every runtime was asked.
  bool Asking(const std::string& id) const;

  // What a runtime's event stream said: a container created (fetched now,
  // before its first process runs) or removed (dropped).
  void OnChange(ContainerChange change, const std::string& id);

  Counters counters() const;

 private:
  using Clock = std::chrono::steady_clock;
  struct Entry {
    std::shared_ptr<const ContainerMetadata> metadata;  // null: not (yet) known
    bool queued = false;
    bool answered = false;  // a fetch ended, whatever it found
    Clock::time_point next_check;
  };

  void Loop();
  // Asks the runtimes about `id`; called on the worker thread, unlocked.
  void Fetch(const std::string& id);
  // Follows `source`'s container events until the cache stops; reconnects.
  void FollowEvents(RuntimeSource& source);
  // Adds `id` and queues its fetch unless known or queued; under mu_.
  Entry& Want(const std::string& id);

  Options options_;
  mutable std::mutex mu_;
  std::condition_variable wake_;
  absl::flat_hash_map<std::string, Entry> entries_;
  std::deque<std::string> queue_;
  Counters counters_;
  bool stopping_ = false;
  std::thread thread_;                      // started by the constructor, once the rest is set
  std::vector<std::thread> event_threads_;  // one per source
};

}  // namespace kestrel::engine::containers

#endif  // KESTREL_ENGINE_CONTAINERS_METADATA_CACHE_H_
