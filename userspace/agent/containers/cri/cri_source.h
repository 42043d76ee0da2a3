// The Kubernetes Container Runtime Interface as a metadata source:
// containerd's and CRI-O's gRPC API on their unix sockets.
#ifndef KESTREL_AGENT_CONTAINERS_CRI_CRI_SOURCE_H_
#define KESTREL_AGENT_CONTAINERS_CRI_CRI_SOURCE_H_

#include <chrono>
#include <memory>
#include <string>

#include "engine/containers/runtime_source.h"

namespace kestrel::agent::containers {

// The CRI on the unix socket `socket`, each call bounded by `timeout`.
// Inspect asks ContainerStatus, then PodSandboxStatus for an id that is no
// container; Follow reads GetContainerEvents (containerd 1.7+, CRI-O 1.26+;
// Unimplemented before).
std::unique_ptr<engine::containers::RuntimeSource> MakeCriSource(std::string socket,
                                                                 std::chrono::milliseconds timeout);

}  // namespace kestrel::agent::containers

#endif  // KESTREL_AGENT_CONTAINERS_CRI_CRI_SOURCE_H_
