#include "kestrel/run/run_command.h"

#include <time.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <memory>
#include <optional>

#include "absl/strings/str_cat.h"
#include "agent/agent.h"
#include "kestrel/common/cli_app.h"
#include "kestrel/common/describe_rules.h"
#include "kestrel/run/run_notify.h"
#include "kestrel/run/run_options.h"
#include "kestrel/run/run_pidfile.h"
#include "libpman.h"

namespace kestrel::cli {
namespace {

volatile std::sig_atomic_t g_run_stop = 0;
volatile std::sig_atomic_t g_run_reload = 0;
volatile std::sig_atomic_t g_run_reopen = 0;

// The first SIGINT/SIGTERM drains and stops; a second one, during a long
// drain, ends the process at once.
void OnRunStopSignal(int sig) {
  if (g_run_stop) {
    std::signal(sig, SIG_DFL);
    std::raise(sig);
  }
  g_run_stop = 1;
}
void OnRunReloadSignal(int) { g_run_reload = 1; }
void OnRunReopenSignal(int) { g_run_reopen = 1; }

void InstallRunSignalHandlers() {
  struct sigaction sa {};
  sigemptyset(&sa.sa_mask);
  sa.sa_handler = OnRunStopSignal;
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  sa.sa_handler = OnRunReloadSignal;
  sigaction(SIGHUP, &sa, nullptr);
  sa.sa_handler = OnRunReopenSignal;
  sigaction(SIGUSR1, &sa, nullptr);
}

void Say(const std::string& line) { std::fprintf(stderr, "kestrel run: %s\n", line.c_str()); }

// An agent error's exit code: a config, rules or output problem is the
// user's (nothing was started), anything else is the run's.
int ExitCodeOf(const absl::Status& s) {
  return absl::IsInvalidArgument(s) ? kExitUsage : kExitFailure;
}

agent::AgentOptions AgentOptionsOf(const RunOptions& options) {
  agent::AgentOptions a;
  a.config_file = options.config;
  a.config_keys = options.overrides;
  // Falco's -U wins over the config and -o, whatever their order.
  if (options.unbuffered) a.config_keys.push_back("buffered_outputs=false");
  a.describe_rules = options.list_rules || options.rule.has_value();
  a.rules_files = options.rules;
  a.strict = options.strict;
  a.container_runtimes = !options.replay;
  if (!options.no_pin) a.pin_dir = options.pin_dir;
  a.buffer_bytes = options.buffer_bytes;
  a.cpus_per_buffer = options.cpus_per_buffer;
  a.lock_settings = options.lock_settings;
  a.stats_interval_s = options.stats_interval_s;
  a.log = [](agent::LogLevel, const std::string& line) { Say(line); };
  return a;
}

// Runs until a stop signal, -M's time or the agent's own end, passing
// SIGHUP (reload) and SIGUSR1 (reopen) on.
int RunLive(agent::Agent& agent, const RunOptions& options) {
  InstallRunSignalHandlers();
  if (absl::Status s = agent.Start(); !s.ok()) {
    if (!absl::IsInternal(s)) Say(std::string(s.message()));
    return ExitCodeOf(s);
  }
  NotifyServiceManager("READY=1");
  using Clock = std::chrono::steady_clock;
  const auto stop_at = options.duration_s
                           ? Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                                std::chrono::duration<double>(*options.duration_s))
                           : Clock::time_point::max();
  while (!g_run_stop && agent.running() && Clock::now() < stop_at) {
    if (g_run_reload) {
      g_run_reload = 0;
      agent.RequestReload();
      // The old rules run until the new ones take over: still ready.
      NotifyServiceManager("READY=1");
    }
    if (g_run_reopen) {
      g_run_reopen = 0;
      agent.ReopenOutputs();
    }
    const timespec tick{0, 20'000'000};
    nanosleep(&tick, nullptr);
  }
  NotifyServiceManager("STOPPING=1");
  const absl::Status stopped = agent.Stop();
  std::fputs(agent.ProbeReport().c_str(), stderr);
  return stopped.ok() ? kExitOk : kExitFailure;
}

}  // namespace

int RunRun(const std::vector<std::string>& args) {
  std::unique_ptr<CLI::App> app = MakeVerbApp(
      "run",
      "Loads Falco-format rules, captures what they need and prints an alert for every event\n"
      "that matches one, until Ctrl-C (SIGINT) or SIGTERM; then the stats on stderr.\n"
      "Without -r or rules_files: Kestrel's own rules (" KESTREL_INSTALLED_RULES_DIR
      ").\n"
      "The probe captures only the rules' syscalls and the state's (--dry-run lists them),\n"
      "and the resolved path of opened files only when a rule reads or prints it,\n"
      "and the capture is pinned at --pin-dir (default " PMAN_DEFAULT_PIN_DIR
      ") for `kestrel syscalls` and `kestrel settings`; the pin goes away on exit.\n"
      "SIGHUP, or a change to a rules file, reloads the rules: on an error the current ones\n"
      "keep running. SIGUSR1 reopens file_output's file (logrotate).\n"
      "--replay FILE judges a capture file instead, as fast as it reads: the alerts a live run\n"
      "gave for its records, with their times.\n"
      "-L, -l RULE and --support print what was loaded and exit without loading the probe.\n"
      "Exit codes: 0 ok, 1 the run failed (privileges, kernel, a capture file that cannot be\n"
      "read, or is damaged: the alerts of the records before the damage are out, and one\n"
      "line on stderr says where it is), 2 usage, config or rules error (nothing was started).",
      "kestrel run -r my_rules.yaml -o json_output=true -o priority=warning");
  RunOptions options;
  DefineRunOptions(*app, options);
  if (std::optional<int> done = ParseVerb(*app, args)) return *done;
  if (absl::Status s = agent::CheckConfigAssignments(options.overrides); !s.ok()) {
    return UsageError(*app, std::string(s.message()));
  }
  absl::StatusOr<std::unique_ptr<agent::Agent>> opened =
      agent::Agent::Open(AgentOptionsOf(options));
  if (!opened.ok()) {
    Say(std::string(opened.status().message()));
    return ExitCodeOf(opened.status());
  }
  agent::Agent& agent = **opened;
  if (options.support) {
    std::fputs(agent.SupportJson().c_str(), stdout);
    return kExitOk;
  }
  if (options.list_rules || options.rule) {
    return PrintRulesDescription(agent, options.rule, std::nullopt, "kestrel run");
  }
  if (options.dry_run) {
    if (absl::Status s = agent.CheckOutputs(); !s.ok()) {
      Say(std::string(s.message()));
      return kExitUsage;
    }
    std::fputs(agent.SyscallSetText().c_str(), stdout);
    for (const std::string& line : agent.Summary()) Say(line);
    return kExitOk;
  }
  // Written once the run is sure to start, removed when it ends.
  std::unique_ptr<PidFile> pidfile;
  if (options.pidfile) {
    absl::StatusOr<std::unique_ptr<PidFile>> written = PidFile::Write(*options.pidfile);
    if (!written.ok()) {
      Say(std::string(written.status().message()));
      return kExitUsage;
    }
    pidfile = *std::move(written);
  }
  // --replay, or Falco's engine.kind: replay in the config.
  if (const std::optional<std::string> replay =
          options.replay ? options.replay : agent.ConfiguredReplay()) {
    const absl::Status s = agent.Replay(*replay);
    if (!s.ok()) Say(std::string(s.message()));
    return s.ok() ? kExitOk : ExitCodeOf(s);
  }
  return RunLive(agent, options);
}

}  // namespace kestrel::cli
