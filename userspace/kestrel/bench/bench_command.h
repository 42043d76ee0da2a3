// `kestrel bench`: measures the probe's cost and throughput side by side with
// reference floors and installed peers, and prints a table or JSON.
#ifndef KESTREL_CLI_BENCH_BENCH_COMMAND_H_
#define KESTREL_CLI_BENCH_BENCH_COMMAND_H_

#include <string>
#include <vector>

namespace kestrel::cli {

// Runs `kestrel bench ARGS...` (the words after "bench"); returns the exit
// code: kExitOk, kExitFailure when a mode failed or the probe cannot load,
// kExitUsage for a bad command line (cli_app.h). Its flags are defined by
// DefineBenchOptions (kestrel/bench/bench_options.h).
int RunBench(const std::vector<std::string>& args);

}  // namespace kestrel::cli

#endif  // KESTREL_CLI_BENCH_BENCH_COMMAND_H_
