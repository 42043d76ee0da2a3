// Which container runtimes `kestrel run` reads metadata from: those of the
// configured sockets (container_engines.*.sockets: Docker's API, the CRI)
// that answer at start. `rules validate` asks the same ones, so it names
// the same rules as a start would.
#ifndef KESTREL_AGENT_CONFIG_CONTAINER_RUNTIMES_H_
#define KESTREL_AGENT_CONFIG_CONTAINER_RUNTIMES_H_

#include <memory>
#include <vector>

#include "agent/config/run_config.h"
#include "engine/containers/runtime_source.h"

namespace kestrel::agent {

std::vector<std::unique_ptr<engine::containers::RuntimeSource>> AnsweringRuntimes(
    const RunConfig& config);

}  // namespace kestrel::agent

#endif  // KESTREL_AGENT_CONFIG_CONTAINER_RUNTIMES_H_
