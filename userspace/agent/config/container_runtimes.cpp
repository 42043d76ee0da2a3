#include "agent/config/container_runtimes.h"

#include <chrono>
#include <string>

#include "agent/containers/cri/cri_source.h"
#include "agent/containers/docker_api_source.h"

namespace kestrel::agent {

std::vector<std::unique_ptr<engine::containers::RuntimeSource>> AnsweringRuntimes(
    const RunConfig& config) {
  // Short: a missing socket fails at once, and a hung runtime must not
  // hold the start for long.
  constexpr std::chrono::milliseconds kAnswerTimeout(500);
  constexpr std::chrono::milliseconds kRequestTimeout(2000);
  std::vector<std::unique_ptr<engine::containers::RuntimeSource>> sources;
  for (const std::vector<std::string>* sockets : {&config.docker_sockets, &config.podman_sockets}) {
    for (const std::string& socket : *sockets) {
      sources.push_back(containers::MakeDockerApiSource(socket, kRequestTimeout));
    }
  }
  for (const std::string& socket : config.cri_sockets) {
    sources.push_back(containers::MakeCriSource(socket, kRequestTimeout));
  }
  std::vector<std::unique_ptr<engine::containers::RuntimeSource>> answering;
  for (std::unique_ptr<engine::containers::RuntimeSource>& source : sources) {
    if (source->Answers(kAnswerTimeout)) answering.push_back(std::move(source));
  }
  return answering;
}

}  // namespace kestrel::agent
