// Docker's Engine API (Docker, Podman, cri-dockerd) as a source of
// container metadata, over its unix socket with libcurl.
#ifndef KESTREL_AGENT_CONTAINERS_DOCKER_API_SOURCE_H_
#define KESTREL_AGENT_CONTAINERS_DOCKER_API_SOURCE_H_

#include <chrono>
#include <memory>
#include <string>

#include "engine/containers/runtime_source.h"

namespace kestrel::agent::containers {

// Docker's Engine API on the unix socket `socket`, each request bounded by
// `timeout`.
std::unique_ptr<engine::containers::RuntimeSource> MakeDockerApiSource(
    std::string socket, std::chrono::milliseconds timeout);

}  // namespace kestrel::agent::containers

#endif  // KESTREL_AGENT_CONTAINERS_DOCKER_API_SOURCE_H_
