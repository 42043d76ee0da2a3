// Command-line options of `kestrel bench`, defined once for CLI11 so that
// parsing, --help and shell completion share one definition.
#ifndef KESTREL_CLI_BENCH_BENCH_OPTIONS_H_
#define KESTREL_CLI_BENCH_BENCH_OPTIONS_H_

#include <memory>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"

namespace kestrel::cli {

struct BenchOptions {
  std::vector<std::string> modes;  // in run order, no repeats; every mode when none is named
  bool json = false;
  int repetitions = 5;
  // `engine` mode: also the stages with the engine's state (`--state`), and
  // the stored stream's length.
  bool engine_state = false;
  uint64_t engine_events = 2'000'000;
  std::string engine_rules_file;     // --rules FILE: Falco's stable rules, read, never stored
  bool engine_rule_by_rule = false;  // --rule-by-rule: the reference evaluation
  bool engine_live = false;          // --live: openat+close under kestrel run
  uint64_t capture_file_records = 3'000'000;  // capture-file --records
  double soak_duration_s = 600;               // soak --duration
  std::string startup_rules_file;             // startup --rules FILE
  std::string overhead_rules_file;            // overhead --rules FILE
};

// Every mode, in the order `kestrel bench` and `kestrel bench all` run them.
const std::vector<std::string>& AllBenchModes();

inline constexpr int kMaxBenchRepetitions = 1000;

// Defines --json, --repetitions and one subcommand per mode (plus "all"),
// each with its own --help and example, on `app`. Parsing fills `options`,
// which must outlive `app`.
void DefineBenchOptions(CLI::App& app, BenchOptions& options);

// `kestrel bench`'s app, with DefineBenchOptions applied.
std::unique_ptr<CLI::App> MakeBenchApp(BenchOptions& options);

}  // namespace kestrel::cli

#endif  // KESTREL_CLI_BENCH_BENCH_OPTIONS_H_
