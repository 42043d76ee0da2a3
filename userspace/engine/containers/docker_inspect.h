// The Docker Engine API's container inspect document (GET
// /containers/{id}/json), which Docker and Podman's compatible API both
// serve, read into ContainerMetadata.
#ifndef KESTREL_ENGINE_CONTAINERS_DOCKER_INSPECT_H_
#define KESTREL_ENGINE_CONTAINERS_DOCKER_INSPECT_H_

#include <string_view>

#include "absl/status/statusor.h"
#include "container_metadata.h"

namespace kestrel::engine::containers {

// A document that is not JSON, or has no "Id", is an error; a field
// missing or of another type is left at its default.
absl::StatusOr<ContainerMetadata> ParseDockerInspect(std::string_view json);

}  // namespace kestrel::engine::containers

#endif  // KESTREL_ENGINE_CONTAINERS_DOCKER_INSPECT_H_
