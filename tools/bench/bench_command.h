// `kestrel bench`: measures the probe's cost and throughput side by side with
// reference floors and installed peers, and prints a table or JSON.
#ifndef KESTREL_TOOLS_BENCH_BENCH_COMMAND_H_
#define KESTREL_TOOLS_BENCH_BENCH_COMMAND_H_

#include <string>
#include <vector>

namespace kestrel::cli {

int RunBench(const std::vector<std::string>& args);

}  // namespace kestrel::cli

#endif  // KESTREL_TOOLS_BENCH_BENCH_COMMAND_H_
