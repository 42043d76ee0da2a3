// Which container runtimes `kestrel run` reads metadata from: those of the
// configured Docker API sockets (container_engines.*.sockets) that answer
// at start. `rules validate` asks the same ones, so it names the same
// rules as a start would.
#ifndef KESTREL_CLI_RUN_CONTAINER_RUNTIMES_H_
#define KESTREL_CLI_RUN_CONTAINER_RUNTIMES_H_

#include <string>
#include <vector>

#include "run_config.h"

namespace kestrel::cli {

std::vector<std::string> AnsweringRuntimeSockets(const RunConfig& config);

}  // namespace kestrel::cli

#endif  // KESTREL_CLI_RUN_CONTAINER_RUNTIMES_H_
