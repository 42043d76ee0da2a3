// One container runtime the metadata cache asks: Docker's API (Docker,
// Podman's compatible API) or the Kubernetes CRI (containerd, CRI-O).
// Every call is bounded in time and made on the cache's threads, never on
// the event path.
#ifndef KESTREL_ENGINE_CONTAINERS_RUNTIME_SOURCE_H_
#define KESTREL_ENGINE_CONTAINERS_RUNTIME_SOURCE_H_

#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "container_metadata.h"

namespace kestrel::engine::containers {

// What a runtime said happened to a container.
enum class ContainerChange { kCreated, kRemoved };

class RuntimeSource {
 public:
  virtual ~RuntimeSource() = default;

  // "docker API /var/run/docker.sock", "CRI /run/containerd/containerd.sock".
  virtual const std::string& name() const = 0;

  // Whether the runtime answers at all.
  virtual bool Answers(std::chrono::milliseconds timeout) = 0;

  // What the runtime says about container `id`, or about the pod sandbox
  // `id` (is_pod_sandbox set). NotFound when it knows no such one,
  // Unavailable when it does not answer, another error otherwise.
  virtual absl::StatusOr<ContainerMetadata> Inspect(const std::string& id) = 0;

  // Follows the runtime's container events, handing each to `on_change`,
  // until the stream ends, fails or `stop` says so (asked at least once a
  // second). Unimplemented when the runtime has no event stream.
  virtual absl::Status Follow(
      const std::function<void(ContainerChange, const std::string& id)>& on_change,
      const std::function<bool()>& stop) = 0;
};

}  // namespace kestrel::engine::containers

#endif  // KESTREL_ENGINE_CONTAINERS_RUNTIME_SOURCE_H_
