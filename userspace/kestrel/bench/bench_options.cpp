#include "kestrel/bench/bench_options.h"

#include <algorithm>
#include <array>

#include "kestrel/common/cli_app.h"
#include "kestrel/recorder/recorder_options.h"

namespace kestrel::cli {
namespace {

struct ModeHelp {
  const char* name;
  const char* description;
  const char* example;
};

constexpr std::array<ModeHelp, 9> kModeHelp = {{
    {"overhead",
     "ns the probe adds to getppid and to openat+close, against an empty hook, a minimal "
     "recording hook, Falco's figures and installed peers; a getppid outside a rules' syscall "
     "set under the dispatcher and under per-syscall tracepoints",
     "kestrel bench overhead --rules falco_rules.yaml --repetitions 3"},
    {"throughput",
     "events/s delivered by shared and per-CPU rings before and after drops start, consumer "
     "CPU, a starved reader, exact loss accounting and the reader's memory",
     "kestrel bench throughput --json"},
    {"settings",
     "what a settings change costs by mmap store against bpf_map_update_elem, and what the "
     "attached probe adds to an uninteresting syscall, for both settings storage modes",
     "kestrel bench settings --repetitions 1 --json"},
    {"rings",
     "shared against per-CPU rings under two load threads, against a minimal producer's "
     "ceiling, and the transport alone (a backlog drain, libpman against a raw reader)",
     "kestrel bench rings --repetitions 3"},
    {"recorder",
     "ns a flight recorder adds per record, shared and per-CPU, and two writers' contention",
     "kestrel bench recorder --json"},
    {"engine",
     "events/s the engine takes on one core, replaying a stored stream of real records: decode "
     "only and, with --state, decode + process and descriptor state, that + conditions, and "
     "rules: Kestrel's, --rules FILE's, and generated ones added",
     "kestrel bench engine --state --rules /etc/falco/falco_rules.yaml"},
    {"capture-file",
     "capture files: highest zero-drop rate writing -w against printing to /dev/null, the "
     "read rate (decompress + iterate) on one core, bytes per record for zstd levels 0, 1, 3",
     "kestrel bench capture-file --records 3000000"},
    {"startup",
     "CPU and wall time from exec to attached for `kestrel capture --syscalls getppid` and "
     "`kestrel run` (fillers loaded as the syscalls need them, against every filler at start), "
     "the ms from enabling a syscall to its first record, and each program's verification",
     "kestrel bench startup --rules falco_rules.yaml"},
    {"soak",
     "kestrel run with the default rules under a bounded load on every CPU for --duration: RSS "
     "over time and its plateau, the thread table's size, events, drops by cause, alerts, and "
     "whether every attempted record was consumed or counted as dropped (run only when named)",
     "kestrel bench soak --duration 10m"},
}};

constexpr char kModeFooterOptions[] =
    "\n\nThe options of `kestrel bench` (--json, --repetitions N) may follow the mode.";

void AddMode(BenchOptions& options, const std::string& mode) {
  if (std::find(options.modes.begin(), options.modes.end(), mode) == options.modes.end()) {
    options.modes.push_back(mode);
  }
}

}  // namespace

const std::vector<std::string>& AllBenchModes() {
  static const std::vector<std::string> modes = [] {
    std::vector<std::string> out;
    // The soak runs for minutes: only when named.
    for (const ModeHelp& m : kModeHelp) {
      if (std::string_view(m.name) != "soak") out.push_back(m.name);
    }
    return out;
  }();
  return modes;
}

void DefineBenchOptions(CLI::App& app, BenchOptions& options) {
  app.add_flag("--json", options.json, "print one JSON object instead of tables");
  app.add_option("--repetitions", options.repetitions,
                 "repetitions per measurement; every figure is their median")
      ->check(CLI::Range(1, kMaxBenchRepetitions))
      ->capture_default_str();
  // Any number of modes, run in the order given.
  app.require_subcommand(0, 0);
  for (const ModeHelp& m : kModeHelp) {
    CLI::App* mode = app.add_subcommand(m.name, m.description);
    mode->fallthrough();
    mode->footer(std::string("Example:\n  ") + m.example + kModeFooterOptions);
    const std::string name = m.name;
    // Runs as soon as the mode's words are parsed: the modes keep the
    // command line's order.
    mode->parse_complete_callback([&options, name] { AddMode(options, name); });
    if (name == "capture-file") {
      mode->add_option("--records", options.capture_file_records,
                       "records in the file the reader reads")
          ->check(CLI::Range(uint64_t{10'000}, uint64_t{20'000'000}))
          ->capture_default_str();
    }
    if (name == "overhead") {
      mode->add_option("--rules", options.overhead_rules_file,
                       "the rules whose syscall set the attachment rows load (Falco's stable "
                       "rules for the issue's figure; default: Kestrel's own rules)")
          ->check(CLI::ExistingPath);
    }
    if (name == "startup") {
      mode->add_option("--rules", options.startup_rules_file,
                       "the rules `kestrel run` starts with (Falco's stable rules for the issue's "
                       "figure; default: Kestrel's own rules)")
          ->check(CLI::ExistingFile);
    }
    if (name == "soak") {
      mode->add_option_function<std::string>(
              "--duration",
              [&options](const std::string& text) {
                absl::StatusOr<uint64_t> ns = ParseDuration(text);
                if (!ns.ok())
                  throw CLI::ValidationError("--duration", std::string(ns.status().message()));
                options.soak_duration_s = static_cast<double>(*ns) / 1e9;
              },
              "how long the load runs (60s, 10m; default 10m)")
          ->type_name("DURATION");
    }
    if (name == "engine") {
      mode->add_flag("--state", options.engine_state,
                     "also measure decode + the engine's process and descriptor state, and "
                     "that + evaluating representative conditions");
      mode->add_option("--events", options.engine_events, "records in the stored stream")
          ->check(CLI::Range(uint64_t{10'000}, uint64_t{20'000'000}))
          ->capture_default_str();
      mode->add_option("--rules", options.engine_rules_file,
                       "with --state: a rules file or folder (Falco's stable rules) measured, and "
                       "the base the generated rules are added to (default: Kestrel's own rules)")
          ->check(CLI::ExistingPath);
      mode->add_flag("--rule-by-rule", options.engine_rule_by_rule,
                     "evaluate the rules one after the other instead of through the rule index");
      mode->add_flag("--live", options.engine_live,
                     "with --state: also openat+close on every CPU (two threads, then a process "
                     "per CPU), alone and under kestrel run with the base rules: the slowdowns, "
                     "the records dropped, and those dropped while the rules reload");
    }
  }
  CLI::App* all = app.add_subcommand("all", "every mode, one after the other");
  all->fallthrough();
  all->footer(std::string("Example:\n  kestrel bench all --json") + kModeFooterOptions);
  all->parse_complete_callback([&options] {
    for (const std::string& mode : AllBenchModes()) AddMode(options, mode);
    options.engine_state = true;
    options.engine_live = true;
  });
  app.callback([&options] {
    if (options.modes.empty()) options.modes = AllBenchModes();
  });
}

std::unique_ptr<CLI::App> MakeBenchApp(BenchOptions& options) {
  std::unique_ptr<CLI::App> app = MakeVerbApp(
      "bench",
      "Measures the probe side by side with reference floors and installed peers, one mode "
      "after the other (every mode when none is named). Every figure is the median of paired "
      "repetitions; rows with a target say whether it was met. Needs root (CAP_BPF and "
      "CAP_PERFMON).",
      "kestrel bench settings rings --repetitions 3 --json");
  DefineBenchOptions(*app, options);
  return app;
}

}  // namespace kestrel::cli
