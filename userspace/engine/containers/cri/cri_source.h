// The Kubernetes Container Runtime Interface as a metadata source:
// containerd's and CRI-O's gRPC API on their unix sockets.
#ifndef KESTREL_ENGINE_CONTAINERS_CRI_CRI_SOURCE_H_
#define KESTREL_ENGINE_CONTAINERS_CRI_CRI_SOURCE_H_

#include <chrono>
#include <memory>
#include <string>

#include "engine/containers/runtime_source.h"

namespace kestrel::engine::containers {

// The CRI on the unix socket `socket`, each call bounded by `timeout`.
// Inspect asks ContainerStatus, then PodSandboxStatus for an id that is no
// container; Follow reads GetContainerEvents (containerd 1.7+, CRI-O 1.26+;
// Unimplemented before).
std::unique_ptr<RuntimeSource> MakeCriSource(std::string socket, std::chrono::milliseconds timeout);

}  // namespace kestrel::engine::containers

#endif  // KESTREL_ENGINE_CONTAINERS_CRI_CRI_SOURCE_H_
