// A GET to a container runtime's API on its unix socket (Docker's, or
// Podman's Docker-compatible one), bounded in time and size: a runtime
// that hangs or floods never holds the thread that asks.
#ifndef KESTREL_AGENT_CONTAINERS_RUNTIME_CLIENT_H_
#define KESTREL_AGENT_CONTAINERS_RUNTIME_CLIENT_H_

#include <chrono>
#include <functional>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace kestrel::agent::containers {

// The largest answer read: an inspect document is a few kB.
inline constexpr size_t kMaxRuntimeAnswerBytes = 1 << 20;

// The body of `GET path` on `socket_path`. NotFound for a 404 (no such
// container), Unavailable when nothing answers on the socket, another
// error for any other failure.
absl::StatusOr<std::string> RuntimeGet(const std::string& socket_path, const std::string& path,
                                       std::chrono::milliseconds timeout);

// Follows `GET path` on `socket_path` (a stream such as /events), handing
// each complete line of the body to `on_line`, until the runtime ends it,
// it fails, or `stop` says so (asked at least once a second). Lines longer
// than kMaxRuntimeAnswerBytes are dropped.
absl::Status RuntimeFollow(const std::string& socket_path, const std::string& path,
                           const std::function<void(std::string_view)>& on_line,
                           const std::function<bool()>& stop);

// Whether a runtime answers on `socket_path` (GET /_ping).
bool RuntimeAnswers(const std::string& socket_path, std::chrono::milliseconds timeout);

}  // namespace kestrel::agent::containers

#endif  // KESTREL_AGENT_CONTAINERS_RUNTIME_CLIENT_H_
