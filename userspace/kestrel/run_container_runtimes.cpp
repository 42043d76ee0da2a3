#include "run_container_runtimes.h"

#include <chrono>

#include "engine/containers/runtime_client.h"

namespace kestrel::cli {

std::vector<std::string> AnsweringRuntimeSockets(const RunConfig& config) {
  // Short: a missing socket fails at once, and a hung runtime must not
  // hold the start for long.
  constexpr std::chrono::milliseconds kTimeout(500);
  std::vector<std::string> answering;
  for (const std::vector<std::string>* sockets : {&config.docker_sockets, &config.podman_sockets}) {
    for (const std::string& socket : *sockets) {
      if (engine::containers::RuntimeAnswers(socket, kTimeout)) answering.push_back(socket);
    }
  }
  return answering;
}

}  // namespace kestrel::cli
