// One line of the Docker API's event stream (GET /events), as Docker and
// Podman's compatible API write it: what happened to which container. The
// cache follows the stream to fetch a container's metadata when it is
// created, before its first process runs, and to drop it when removed.
#ifndef KESTREL_ENGINE_CONTAINERS_DOCKER_EVENTS_H_
#define KESTREL_ENGINE_CONTAINERS_DOCKER_EVENTS_H_

#include <optional>
#include <string>
#include <string_view>

namespace kestrel::engine::containers {

struct ContainerEvent {
  std::string action;  // "create", "start", "die", "destroy" (Podman: "remove") ...
  std::string id;      // 64 hex digits
};

// The query that asks for container events only.
inline constexpr char kContainerEventsPath[] =
    "/events?filters=%7B%22type%22%3A%5B%22container%22%5D%7D";

// Whether `s` is a runtime's whole container id: 64 lower-case hex digits.
bool IsContainerId(const std::string& s);

// nullopt for a line that is not JSON, not about a container, or names no
// 64-hex id. Never throws.
std::optional<ContainerEvent> ParseDockerEvent(std::string_view line);

}  // namespace kestrel::engine::containers

#endif  // KESTREL_ENGINE_CONTAINERS_DOCKER_EVENTS_H_
