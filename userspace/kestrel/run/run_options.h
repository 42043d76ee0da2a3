// Command-line options of `kestrel run`.
#ifndef KESTREL_CLI_RUN_OPTIONS_H_
#define KESTREL_CLI_RUN_OPTIONS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "libpman.h"

namespace kestrel::cli {

struct RunOptions {
  std::vector<std::string> rules;      // -r: files or directories; replaces rules_files
  std::optional<std::string> config;   // -c
  std::vector<std::string> overrides;  // -o key=value, applied in order after -c
  std::optional<std::string> replay;   // --replay: a capture file instead of the probe
  bool dry_run = false;
  bool list_rules = false;          // -L: describe every rule, then exit
  std::optional<std::string> rule;  // -l RULE: describe it, then exit
  bool unbuffered = false;          // -U: buffered_outputs=false, after every -o
  bool support = false;             // --support: the support JSON, then exit
  std::optional<double> stats_interval_s;
  std::optional<double> duration_s;    // -M: stop after this long (live only)
  std::optional<std::string> pidfile;  // -P: this process's pid, while it runs
  bool strict = false;
  std::string pin_dir = PMAN_DEFAULT_PIN_DIR;
  bool no_pin = false;
  bool lock_settings = false;  // freeze the probe once set up
  uint64_t buffer_bytes = PMAN_DEFAULT_BUFFER_BYTES;
  uint32_t cpus_per_buffer = PMAN_CPUS_PER_BUFFER_AUTO;
};

inline constexpr char kRunDescription[] = "run rules on live events and raise alerts";

void DefineRunOptions(CLI::App& app, RunOptions& options);

}  // namespace kestrel::cli

#endif  // KESTREL_CLI_RUN_OPTIONS_H_
