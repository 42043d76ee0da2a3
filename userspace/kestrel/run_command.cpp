#include "run_command.h"

#include <sys/stat.h>
#include <time.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "capture_options.h"
#include "cli_app.h"
#include "engine/containers/metadata_cache.h"
#include "engine/fields/field_registry.h"
#include "engine/state/thread_table.h"
#include "libpman.h"
#include "preflight.h"
#include "probe_loader.h"
#include "run_capture_window.h"
#include "run_config.h"
#include "run_container_runtimes.h"
#include "run_default_rules.h"
#include "run_load_shedding.h"
#include "run_options.h"
#include "run_pidfile.h"
#include "run_pipeline.h"
#include "run_probe_settings.h"
#include "run_reload.h"
#include "run_replay.h"
#include "run_rules.h"
#include "run_rules_worker.h"
#include "run_stats.h"
#include "run_syscall_set.h"
#include "run_tamper_watch.h"
#include "stats_printer.h"

namespace kestrel::cli {
namespace {

volatile std::sig_atomic_t g_stop = 0;
volatile std::sig_atomic_t g_reload = 0;
volatile std::sig_atomic_t g_reopen = 0;

// The first SIGINT/SIGTERM drains and stops; a second one, during a long
// drain, ends the process at once.
void OnStopSignal(int sig) {
  if (g_stop) {
    std::signal(sig, SIG_DFL);
    std::raise(sig);
  }
  g_stop = 1;
}
void OnReloadSignal(int) { g_reload = 1; }
void OnReopenSignal(int) { g_reopen = 1; }

// No SA_RESTART: a signal must cut pman_wait_for_events short.
void InstallSignalHandlers() {
  struct sigaction sa {};
  sigemptyset(&sa.sa_mask);
  sa.sa_handler = OnStopSignal;
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  sa.sa_handler = OnReloadSignal;
  sigaction(SIGHUP, &sa, nullptr);
  sa.sa_handler = OnReopenSignal;
  sigaction(SIGUSR1, &sa, nullptr);
}

void Say(const std::string& line) { std::fprintf(stderr, "kestrel run: %s\n", line.c_str()); }

uint64_t ClockNs(clockid_t clock) {
  timespec ts{};
  clock_gettime(clock, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1'000'000'000 + static_cast<uint64_t>(ts.tv_nsec);
}
uint64_t BootClockNs() { return ClockNs(CLOCK_BOOTTIME); }
uint64_t WallClockNs() { return ClockNs(CLOCK_REALTIME); }

engine::alerts::OutputsConfig OutputsOf(const RunConfig& c) {
  engine::alerts::OutputsConfig o;
  o.json_output = c.json_output;
  o.json.include_output = c.json_include_output_property;
  o.json.include_tags = c.json_include_tags_property;
  o.buffered = c.buffered_outputs;
  o.stdout_enabled = c.stdout_enabled;
  o.file.enabled = c.file_output.enabled;
  o.file.filename = c.file_output.filename;
  o.file.keep_alive = c.file_output.keep_alive;
  o.syslog_enabled = c.syslog_enabled;
  o.program.enabled = c.program_output.enabled;
  o.program.program = c.program_output.program;
  o.program.keep_alive = c.program_output.keep_alive;
  o.http.enabled = c.http_output.enabled;
  o.http.url = c.http_output.url;
  o.http.timeout = std::chrono::milliseconds(c.output_timeout_ms);
  o.queue_capacity = c.outputs_queue_capacity;
  o.rate_limit.tokens_per_second = c.outputs.rate;
  o.rate_limit.max_burst = c.outputs.max_burst;
  o.on_failure = [](const std::string& line) { Say(line); };
  return o;
}

// Everything the run is configured with once the command line, the config
// and the rules are read.
struct RunSetup {
  RunOptions options;
  RunConfig config;
  RunRulesOptions rules_options;
  engine::fields::FieldRegistry fields;
  // Container metadata, when a runtime answers on a configured socket.
  std::unique_ptr<engine::containers::ContainerMetadataCache> containers;
  std::shared_ptr<const RunRules> rules;
  std::vector<ChosenSyscall> syscalls;
};

// Asks the configured runtime sockets; with one answering, container
// metadata is read from the runtimes and the fields it fills count as
// filled when rules load.
void ConnectContainerRuntimes(RunSetup& setup) {
  engine::containers::ContainerMetadataCache::Options options;
  options.sources = AnsweringRuntimes(setup.config);
  if (options.sources.empty()) return;
  setup.fields.SetFilled(engine::fields::FieldSource::kContainerRuntime);
  std::vector<std::string> names;
  for (const auto& source : options.sources) names.push_back(source->name());
  Say(absl::StrCat("container metadata from ", absl::StrJoin(names, ", ")));
  setup.containers =
      std::make_unique<engine::containers::ContainerMetadataCache>(std::move(options));
}

void PrintDiagnostics(const std::vector<engine::rules::Diagnostic>& diags) {
  for (const engine::rules::Diagnostic& d : diags) Say(d.ToString());
}

// Loads the rules and chooses the syscall set; on failure prints why and
// returns the exit code.
std::optional<int> LoadRules(RunSetup& setup) {
  std::vector<engine::rules::Diagnostic> diags;
  absl::StatusOr<std::unique_ptr<RunRules>> rules =
      LoadRunRules(setup.rules_options, setup.fields, diags);
  PrintDiagnostics(diags);
  if (!rules.ok()) {
    Say(absl::StrCat("the rules did not load: ", rules.status().message()));
    return kExitUsage;
  }
  setup.rules = *std::move(rules);
  std::vector<std::string> warnings;
  setup.syscalls = ChooseSyscalls(setup.rules->syscalls, setup.config.base_syscalls.custom_set,
                                  setup.config.base_syscalls.repair, warnings);
  for (const std::string& w : warnings) Say(absl::StrCat("warning: ", w));
  return std::nullopt;
}

// Reads -c then -o; on failure prints why and returns the exit code.
std::optional<int> Configure(CLI::App& app, RunSetup& setup) {
  if (setup.options.config) {
    std::vector<std::string> warnings;
    absl::Status s = LoadRunConfigFile(*setup.options.config, setup.config, warnings);
    for (const std::string& w : warnings) Say(absl::StrCat("warning: ", w));
    if (!s.ok()) {
      Say(std::string(s.message()));
      return kExitUsage;
    }
  }
  for (const std::string& o : setup.options.overrides) {
    if (absl::Status s = ApplyRunOverride(o, setup.config); !s.ok()) {
      return UsageError(app, std::string(s.message()));
    }
  }
  if (absl::Status s = CheckRunConfig(setup.config); !s.ok()) {
    Say(std::string(s.message()));
    return kExitUsage;
  }
  if (!setup.options.rules.empty()) setup.config.rules_files = setup.options.rules;
  if (setup.config.rules_files.empty()) setup.config.rules_files = {DefaultRulesDir()};
  setup.rules_options.paths = setup.config.rules_files;
  setup.rules_options.strict = setup.options.strict;
  setup.rules_options.minimum_priority = setup.config.priority;
  setup.rules_options.max_file_bytes = setup.config.rules_file_max_bytes;
  setup.rules_options.drop_failed_exit = setup.config.drop_failed_exit;
  return std::nullopt;
}

void PrintStatsLine(const RunPipeline& pipeline, pman_handle* handle, double rate,
                    const engine::alerts::AlertOutputs& outputs, const AlertCapture* capture,
                    const LoadShedder& shedder, const TamperWatch& tamper,
                    const engine::containers::ContainerMetadataCache* containers) {
  pman_stats stats{};
  const bool have = handle != nullptr && pman_get_stats(handle, &stats, nullptr, 0) == 0;
  std::string line = FormatRunStats(pipeline.counters(), have ? &stats : nullptr, rate,
                                    outputs.Stats(), outputs.rate_limited(), pipeline.threads());
  if (capture != nullptr) {
    absl::StrAppend(&line, "; captures written ", capture->written(), " failed ",
                    capture->failed());
  }
  absl::StrAppend(&line, "; load shedding started ", shedder.counters().starts, " stopped ",
                  shedder.counters().stops, shedder.on() ? " (on)" : "",
                  "; probe changed by another process ", tamper.changes_seen(), " times, put back ",
                  tamper.repairs());
  if (containers != nullptr) {
    const engine::containers::ContainerMetadataCache::Counters c = containers->counters();
    const HeldEvents::Counters& held = pipeline.held_counters();
    absl::StrAppend(
        &line, "; containers known ", c.cached, " (fetched ", c.fetched, ", unknown ", c.unknown,
        ", failed ", c.failed, ", gone ", c.evicted, "), alerts before the metadata arrived ",
        pipeline.counters().alerts_before_metadata, "; events held for it ", held.held,
        " (judged with it ", held.with_metadata, ", without ", held.without_metadata, ", alerting ",
        pipeline.counters().alerts_judged_late, "; over the bounds ", held.not_held, ")");
  }
  Say(line);
}

// The info block every capture file of the run starts with: this machine,
// the syscalls and settings the probe started with.
engine::capture_file::CaptureInfo RunCaptureInfo(const RunSetup& setup,
                                                 const kestrel_capture_settings& settings) {
  engine::capture_file::CaptureInfo info = engine::capture_file::CaptureInfoOfThisMachine();
  for (const ChosenSyscall& s : setup.syscalls) info.syscalls.push_back(s.id);
  const auto* bytes = reinterpret_cast<const uint8_t*>(&settings);
  info.settings.assign(bytes, bytes + sizeof(settings));
  info.boot_time_ns = settings.boot_time_ns;
  info.writer = "kestrel " KESTREL_VERSION;
  return info;
}

// The directory capture files go to must be there before anything starts.
absl::Status CheckCapturePrefix(const RunCaptureConfig& capture) {
  if (!capture.enabled) return absl::OkStatus();
  const size_t slash = capture.path_prefix.rfind('/');
  const std::string dir = slash == std::string::npos ? "."
                          : slash == 0               ? "/"
                                                     : capture.path_prefix.substr(0, slash);
  struct stat st {};
  if (stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    return absl::InvalidArgumentError(absl::StrCat("capture.path_prefix ",
                                                   Quote(capture.path_prefix), ": ", Quote(dir),
                                                   " is not a directory"));
  }
  return absl::OkStatus();
}

// The probe options for the rules' syscalls and settings.
CaptureOptions ProbeOptionsOf(const RunSetup& setup) {
  CaptureOptions probe;
  probe.all_syscalls = false;
  for (const ChosenSyscall& s : setup.syscalls) probe.syscalls.push_back(s.id);
  if (!setup.options.no_pin) probe.pin_dir = setup.options.pin_dir;
  probe.buffer_bytes = setup.options.buffer_bytes;
  probe.cpus_per_buffer = setup.options.cpus_per_buffer;
  const kestrel_capture_settings wanted = SettingsForNeeds({}, setup.rules->needs);
  probe.io_data = wanted.capture_io_data != 0;
  probe.settings.values["snaplen"] = wanted.snaplen;
  probe.settings.values["drop_failed"] = wanted.drop_failed;
  probe.omitted_params = OmittedParamsForNeeds(setup.rules->needs, setup.config.capture.enabled);
  return probe;
}

// What the rules at or above load_shedding's keep_priority let it thin.
SheddingPlan SheddingPlanOf(const RunSetup& setup) {
  return PlanShedding(setup.syscalls, setup.rules->syscalls,
                      setup.config.load_shedding.keep_priority, pman_syscall_table_size());
}

// Has the probe sample that, should the reader fall behind.
void PlanLoadShedding(const RunSetup& setup, LoadShedder& shedder) {
  SheddingPlan plan = SheddingPlanOf(setup);
  Say(DescribeShedding(plan, setup.config.load_shedding));
  if (!setup.config.load_shedding.enabled) return;
  if (absl::Status s = shedder.Apply(std::move(plan)); !s.ok()) Say(std::string(s.message()));
}

// Emits one alert: printed on stderr and sent to every channel.
using EmitFn = std::function<void(const engine::alerts::Alert&)>;

// Puts rules a reload compiled in force: the syscalls they add are turned
// on first, the new rules judge every record from then on, and only then
// are the syscalls they drop turned off, so no record falls between the
// two. A failed load leaves the running rules as they are.
void ApplyReload(RulesLoadWorker::Result loaded, RunSetup& setup, pman_handle* handle,
                 RunPipeline& pipeline, LoadShedder& shedder, TamperWatch& tamper,
                 const EmitFn& emit) {
  if (!loaded.rules.ok()) {
    std::string why(loaded.rules.status().message());
    for (const engine::rules::Diagnostic& d : loaded.diags) {
      if (d.severity == engine::rules::Diagnostic::Severity::kError) {
        why = d.ToString();
        break;
      }
    }
    Say(absl::StrCat("reload failed, the current rules keep running: ", why));
    return;
  }
  std::shared_ptr<const RunRules> rules = *std::move(loaded.rules);
  std::vector<std::string> warnings;
  std::vector<ChosenSyscall> syscalls =
      ChooseSyscalls(rules->syscalls, setup.config.base_syscalls.custom_set,
                     setup.config.base_syscalls.repair, warnings);
  const SyscallChange change = DiffSyscallSets(setup.syscalls, syscalls);
  // What another process changed since the last batch is told (and put
  // back) before the engine's own changes are made.
  for (const engine::alerts::Alert& a : tamper.Check(WallClockNs())) emit(a);
  OwnChange own;
  own.syscalls = change.added;
  own.syscalls.insert(own.syscalls.end(), change.removed.begin(), change.removed.end());
  own.settings = own.drop_classes = own.omitted_params = true;
  if (absl::Status s = MarkSyscalls(handle, change.added, true); !s.ok()) {
    Say(absl::StrCat("reload failed, the current rules keep running: ", s.message()));
    MarkSyscalls(handle, change.added, false).IgnoreError();
    tamper.ExpectOwn(own);
    return;
  }
  kestrel_capture_settings settings{};
  if (pman_get_capture_settings(handle, &settings) == 0) {
    const kestrel_capture_settings wanted = SettingsForNeeds(settings, rules->needs);
    if (wanted.snaplen != settings.snaplen || wanted.drop_failed != settings.drop_failed ||
        wanted.capture_io_data != settings.capture_io_data) {
      pman_update_capture_settings(handle, &wanted);
    }
  }
  // Like the syscalls: a parameter the new rules read comes back before
  // they judge a record, one only the old rules read goes after.
  uint32_t omitted = 0;
  const uint32_t omit = OmittedParamsForNeeds(rules->needs, setup.config.capture.enabled);
  const bool change_omitted = pman_get_omitted_params(handle, &omitted) == 0 && omitted != omit;
  const bool omits_more = (omit & ~omitted) != 0;
  bool omitted_changed = false;
  if (change_omitted && !omits_more) omitted_changed = pman_set_omitted_params(handle, omit) == 0;
  pipeline.SetRulesFrom(rules, BootClockNs());
  if (change_omitted && omits_more) omitted_changed = pman_set_omitted_params(handle, omit) == 0;
  std::string paths;
  if (omitted_changed) {
    paths = omit & KESTREL_OMIT_OPEN_PATH ? "; open paths omitted" : "; open paths kept";
  }
  if (absl::Status s = MarkSyscalls(handle, change.removed, false); !s.ok())
    Say(std::string(s.message()));
  setup.rules = rules;
  setup.syscalls = std::move(syscalls);
  PlanLoadShedding(setup, shedder);
  tamper.ExpectOwn(own);
  Say(absl::StrCat("rules reloaded: ", DescribeRunRules(*rules), "; syscalls ",
                   DescribeChange(change), paths));
}

int RunLive(RunSetup& setup, engine::alerts::AlertOutputs& outputs) {
  if (absl::Status s = CheckCanLoadProbe(); !s.ok()) {
    Say(std::string(s.message()));
    return kExitFailure;
  }
  InstallSignalHandlers();
  HandlePtr handle = LoadProbe(ProbeOptionsOf(setup), "run");
  if (!handle) return kExitFailure;
  kestrel_capture_settings settings{};
  pman_get_capture_settings(handle.get(), &settings);
  // Seeded after the probe is attached: a thread is either in the seed or
  // created under the probe's eyes.
  engine::ThreadTable threads(
      {.max_entries = setup.config.thread_table_size, .boot_time_ns = settings.boot_time_ns});
  threads.SeedFromProc();
  engine::dns::AddressNames address_names;
  RunPipeline pipeline(setup.fields, threads, outputs, settings.boot_time_ns,
                       !setup.config.rule_matching_all);
  pipeline.SetRules(setup.rules);
  pipeline.SetAddressNames(&address_names);
  pipeline.SetContainerMetadata(setup.containers.get());
  std::unique_ptr<AlertCapture> capture;
  if (setup.config.capture.enabled) {
    capture = std::make_unique<AlertCapture>(setup.config.capture, threads,
                                             RunCaptureInfo(setup, settings));
    pipeline.SetCapture(capture.get());
  }
  LoadShedder shedder(setup.config.load_shedding, handle.get());
  if (setup.options.lock_settings) {
    // Frozen, the probe cannot be switched to dropping mode.
    Say("load shedding off: --lock-settings froze the probe");
    if (int rc = pman_lock_settings(handle.get()); rc != 0) return kExitFailure;
  } else {
    PlanLoadShedding(setup, shedder);
  }
  // From here on every change to the probe is the engine's own, or raises
  // an alert.
  // Put back unless settings are frozen (nothing can change them) or the
  // operator lets other processes tune the probe.
  TamperWatch tamper(handle.get(),
                     !setup.options.lock_settings && !setup.config.allow_outside_changes);
  auto emit = [&](const engine::alerts::Alert& alert) {
    Say(alert.output);
    outputs.Emit(alert);
  };
  std::unique_ptr<RulesWatcher> watcher;
  if (absl::StatusOr<std::unique_ptr<RulesWatcher>> created =
          RulesWatcher::Create(setup.rules_options.paths);
      created.ok()) {
    watcher = *std::move(created);
  } else {
    Say(absl::StrCat("warning: rules files are not watched (SIGHUP still reloads): ",
                     created.status().message()));
  }
  // Started before the loop, stopped (a load under way finished) before
  // the final drain.
  std::optional<RulesLoadWorker> reloads;
  reloads.emplace(setup.rules_options, setup.fields);
  uint32_t omitted = 0;
  pman_get_omitted_params(handle.get(), &omitted);
  Say(absl::StrCat(
      DescribeRunRules(*setup.rules), "; ", setup.syscalls.size(), " syscalls; ",
      DescribeNeeds(settings, omitted),
      setup.options.no_pin ? "" : absl::StrCat("; pinned at ", setup.options.pin_dir)));

  using Clock = std::chrono::steady_clock;
  const auto interval = setup.options.stats_interval_s
                            ? std::chrono::duration_cast<Clock::duration>(
                                  std::chrono::duration<double>(*setup.options.stats_interval_s))
                            : Clock::duration::max();
  auto next_stats =
      setup.options.stats_interval_s ? Clock::now() + interval : Clock::time_point::max();
  const auto stop_at =
      setup.options.duration_s
          ? Clock::now() + std::chrono::duration_cast<Clock::duration>(
                               std::chrono::duration<double>(*setup.options.duration_s))
          : Clock::time_point::max();
  uint64_t events_at_last_stats = 0;
  auto last_stats = Clock::now();
  auto next = [&]() -> const kestrel_record_header* {
    void* record = nullptr;
    int16_t ring = 0;
    if (pman_consume_first_event(handle.get(), &record, &ring) != 0) return nullptr;
    return static_cast<const kestrel_record_header*>(record);
  };
  // Flags and files are looked at between batches, not per record.
  constexpr int kBatch = 4096;
  while (!g_stop && Clock::now() < stop_at) {
    int taken = 0;
    while (taken < kBatch) {
      const kestrel_record_header* header = next();
      if (header == nullptr) break;
      pipeline.Take(header);
      ++taken;
    }
    // Looked at right before each change of the engine's own, so a change
    // by another process is never taken for one.
    pipeline.JudgeHeld();
    for (const engine::alerts::Alert& a : tamper.Check(WallClockNs())) emit(a);
    if (g_reload || (watcher && watcher->Changed())) {
      g_reload = 0;
      reloads->Request();
    }
    if (std::optional<RulesLoadWorker::Result> loaded = reloads->Take()) {
      ApplyReload(*std::move(loaded), setup, handle.get(), pipeline, shedder, tamper, emit);
    }
    reloads->Retire(pipeline.TakeRetiredRules());
    if (absl::StatusOr<std::optional<engine::alerts::Alert>> shed =
            shedder.Check(BootClockNs(), WallClockNs(), pipeline.counters().records);
        !shed.ok()) {
      Say(absl::StrCat(shed.status().message(), "; load shedding is off from now on"));
    } else if (*shed) {
      tamper.Expect();
      emit(**shed);
    }
    if (g_reopen) {
      g_reopen = 0;
      outputs.Reopen();
    }
    if (capture) capture->CloseIfPast(BootClockNs());
    if (Clock::now() >= next_stats) {
      const auto now = Clock::now();
      const double seconds = std::chrono::duration<double>(now - last_stats).count();
      const uint64_t events = pipeline.counters().events;
      PrintStatsLine(pipeline, handle.get(),
                     seconds > 0 ? static_cast<double>(events - events_at_last_stats) / seconds : 0,
                     outputs, capture.get(), shedder, tamper, setup.containers.get());
      events_at_last_stats = events;
      last_stats = now;
      next_stats = now + interval;
    }
    if (taken < kBatch) pman_wait_for_events(handle.get(), 50);
  }
  reloads.reset();
  // What the probe wrote before it stopped is still judged.
  const bool settled = pman_detach_and_settle(handle.get()) == 0;
  while (const kestrel_record_header* header = next()) pipeline.Take(header);
  pipeline.JudgeHeld(/*flush=*/true);
  if (capture) capture->Close();
  // Short enough that the whole shutdown stays within 2 s, whatever a
  // channel does: what is still queued then is counted as dropped.
  outputs.Close(std::chrono::seconds(1));
  PrintStatsLine(pipeline, handle.get(), -1, outputs, capture.get(), shedder, tamper,
                 setup.containers.get());
  // Every record the probe attempted is accounted for: consumed here (the
  // whole ring was drained above) or dropped by cause.
  ReadTally tally;
  tally.consumed = pipeline.counters().records - pipeline.counters().drop_markers;
  tally.undecodable = pipeline.counters().undecodable;
  PrintStats(handle.get(), tally, stderr);
  return settled ? kExitOk : kExitFailure;
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
      "Exit codes: 0 ok, 1 the run failed (privileges, kernel, a capture file that cannot be\n"
      "read, or is damaged: the alerts of the records before the damage are out, and one\n"
      "line on stderr says where it is), 2 usage, config or rules error (nothing was started).",
      "kestrel run -r my_rules.yaml -o json_output=true -o priority=warning");
  RunSetup setup;
  DefineRunOptions(*app, setup.options);
  if (std::optional<int> done = ParseVerb(*app, args)) return *done;
  if (std::optional<int> failed = Configure(*app, setup)) return *failed;
  if (!setup.options.replay) ConnectContainerRuntimes(setup);
  if (std::optional<int> failed = LoadRules(setup)) return *failed;
  if (absl::Status s = CheckCapturePrefix(setup.config.capture); !s.ok()) {
    Say(std::string(s.message()));
    return kExitUsage;
  }
  if (setup.options.dry_run) {
    if (absl::Status s = engine::alerts::AlertOutputs::Check(OutputsOf(setup.config)); !s.ok()) {
      Say(std::string(s.message()));
      return kExitUsage;
    }
    std::fputs(FormatSyscallSet(setup.syscalls).c_str(), stdout);
    Say(absl::StrCat(
        DescribeRunRules(*setup.rules), "; ", setup.syscalls.size(), " syscalls; ",
        DescribeNeeds(SettingsForNeeds({}, setup.rules->needs),
                      OmittedParamsForNeeds(setup.rules->needs, setup.config.capture.enabled))));
    Say(DescribeShedding(SheddingPlanOf(setup), setup.config.load_shedding));
    return kExitOk;
  }
  // Written once the run is sure to start, removed when it ends.
  std::unique_ptr<PidFile> pidfile;
  if (setup.options.pidfile) {
    absl::StatusOr<std::unique_ptr<PidFile>> written = PidFile::Write(*setup.options.pidfile);
    if (!written.ok()) {
      Say(std::string(written.status().message()));
      return kExitUsage;
    }
    pidfile = *std::move(written);
  }
  absl::StatusOr<std::unique_ptr<engine::alerts::AlertOutputs>> outputs =
      engine::alerts::AlertOutputs::Start(OutputsOf(setup.config));
  if (!outputs.ok()) {
    Say(std::string(outputs.status().message()));
    return kExitUsage;
  }
  if (setup.options.replay) {
    return RunReplay(*setup.options.replay, setup.fields, setup.rules,
                     !setup.config.rule_matching_all, setup.config.thread_table_size, **outputs);
  }
  return RunLive(setup, **outputs);
}

}  // namespace kestrel::cli
