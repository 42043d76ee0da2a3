// `kestrel stats`: loads the probe for a while, reads and discards what it
// captures, and prints the ring layout, the locked memory and the counters.
#ifndef KESTREL_CLI_STATS_COMMAND_H_
#define KESTREL_CLI_STATS_COMMAND_H_

#include <string>
#include <vector>

namespace kestrel::cli {

int RunStats(const std::vector<std::string>& args);

}  // namespace kestrel::cli

#endif  // KESTREL_CLI_STATS_COMMAND_H_
