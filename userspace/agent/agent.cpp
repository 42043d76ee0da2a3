#include "agent/agent.h"

#include <malloc.h>
#include <sys/stat.h>
#include <syslog.h>
#include <time.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "agent/config/container_runtimes.h"
#include "agent/config/default_rules.h"
#include "agent/config/run_config.h"
#include "agent/control/load_shedding.h"
#include "agent/control/tamper_watch.h"
#include "agent/observe/event_drops.h"
#include "agent/observe/metrics.h"
#include "agent/observe/webserver.h"
#include "agent/outputs/alert_outputs.h"
#include "agent/pipeline/capture_window.h"
#include "agent/pipeline/pipeline.h"
#include "agent/pipeline/replay.h"
#include "agent/pipeline/stats_line.h"
#include "agent/probe/preflight.h"
#include "agent/probe/probe_loader.h"
#include "agent/probe/read_tally.h"
#include "agent/probe/stats_printer.h"
#include "agent/quote.h"
#include "agent/rules/describe_rules.h"
#include "agent/rules/probe_settings.h"
#include "agent/rules/rules_reload.h"
#include "agent/rules/rules_worker.h"
#include "agent/rules/run_rules.h"
#include "agent/rules/support_report.h"
#include "agent/rules/syscall_set.h"
#include "engine/containers/metadata_cache.h"
#include "engine/dns/address_names.h"
#include "engine/fields/field_registry.h"
#include "engine/state/thread_table.h"

namespace kestrel::agent {
namespace {

uint64_t ClockNs(clockid_t clock) {
  timespec ts{};
  clock_gettime(clock, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1'000'000'000 + static_cast<uint64_t>(ts.tv_nsec);
}
uint64_t BootClockNs() { return ClockNs(CLOCK_BOOTTIME); }
uint64_t WallClockNs() { return ClockNs(CLOCK_REALTIME); }

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

// The pipeline's counters in the embedder's terms.
void CopyCounters(const RunCounters& c, AgentStats& stats) {
  stats.records = c.records;
  stats.events = c.events;
  stats.lost = c.lost;
  stats.undecodable = c.undecodable;
  stats.alerts = c.AlertsTotal();
  stats.alerts_by_priority = c.alerts;
}

}  // namespace

class Agent::Impl {
 public:
  explicit Impl(AgentOptions options) : options_(std::move(options)) {}

  // log_level, log_stderr and log_syslog decide where a line goes: the
  // embedder's log (stderr for `kestrel run`) and the system log.
  void Say(const std::string& line, LogLevel level = LogLevel::kInfo) const {
    const int severity = level == LogLevel::kError     ? LOG_ERR
                         : level == LogLevel::kWarning ? LOG_WARNING
                                                       : LOG_INFO;
    if (severity > config_.log.level) return;
    if (config_.log.to_stderr && options_.log) options_.log(level, line);
    if (config_.log.to_syslog) syslog(LOG_DAEMON | severity, "%s", line.c_str());
  }

  absl::Status Configure();
  // The bytes of I/O data captured when a rule reads buffers
  // (falco_libs.snaplen).
  uint32_t BufferSnaplen() const { return config_.snaplen.value_or(kRuleBufferSnaplen); }
  void ConnectContainerRuntimes();
  absl::Status LoadRules();
  outputs::OutputsConfig OutputsOf() const;
  // A channel that cannot start is a config error (exit 2), as in a dry run.
  absl::Status StartOutputs();
  std::string SummaryLine(const kestrel_capture_settings& settings, uint32_t omitted) const;
  ProbeStart ProbeStartOf();
  SheddingPlan SheddingPlanOf() const {
    return PlanShedding(syscalls_, rules_->syscalls, config_.load_shedding.keep_priority,
                        pman_syscall_table_size());
  }
  void PlanLoadShedding(LoadShedder& shedder);
  engine::capture_file::CaptureInfo CaptureInfoOf(const kestrel_capture_settings& settings) const;

  absl::Status Start();
  absl::Status Replay(const std::string& path);
  absl::Status Stop();
  void ReaderLoop();
  void ApplyReload(RulesLoadWorker::Result loaded);
  void Emit(const engine::alerts::Alert& alert) {
    Say(alert.output);
    outputs_->Emit(alert);
  }
  void PrintStatsLine(double rate);
  void PublishStats();
  // The webserver, before the probe: a port in use leaves nothing attached.
  absl::Status StartWebserver();
  observe::MetricGroups MetricGroupsOf() const;
  // The figures now (reader thread), published for the webserver.
  std::vector<observe::Metric> CollectMetrics();
  std::string MetricsText() const;
  // Once a second on the reader thread: the metrics the webserver serves,
  // syscall_event_drops; and every metrics.interval the metrics snapshot.
  void Tick();
  // Detaches the syscall-exit hook while the interesting-syscall table is
  // empty, attaches it again when it is not (pman_follow_syscall_set), and
  // says so once per change.
  void FollowSyscallSet();
  void EmitMetricsSnapshot();
  void TakeDropActions(const observe::DropTotals& delta);
  absl::Status Reload();
  absl::Status SetRuleEnabled(std::string_view name, bool enabled);

  AgentOptions options_;
  RunConfig config_;
  RunRulesOptions rules_options_;
  engine::fields::FieldRegistry fields_;
  std::unique_ptr<engine::containers::ContainerMetadataCache> containers_;
  std::shared_ptr<const RunRules> rules_;
  std::vector<ChosenSyscall> syscalls_;
  std::unique_ptr<outputs::AlertOutputs> outputs_;

  // The live run's, owned by the reader thread once it started.
  HandlePtr handle_;
  std::unique_ptr<engine::ThreadTable> threads_;
  std::unique_ptr<engine::dns::AddressNames> address_names_;
  std::unique_ptr<RunPipeline> pipeline_;
  std::unique_ptr<AlertCapture> capture_;
  std::unique_ptr<LoadShedder> shedder_;
  std::unique_ptr<TamperWatch> tamper_;
  bool hook_attached_ = true;         // the syscall-exit hook, after FollowSyscallSet
  uint64_t followed_generation_ = 0;  // the settings generation it last followed
  std::unique_ptr<RulesWatcher> watcher_;
  std::optional<RulesLoadWorker> reloads_;
  std::thread reader_;
  std::atomic<bool> stop_{false};
  std::atomic<bool> running_{false};
  std::atomic<bool> reload_asked_{false};
  std::atomic<bool> reopen_asked_{false};
  bool stopped_ = false;
  absl::Status stop_status_;
  std::string probe_report_;

  // Reload() waits here for the reader to apply (or reject) a load asked
  // at or after its request.
  mutable std::mutex mu_;
  std::condition_variable reloaded_;
  uint64_t reloads_asked_ = 0;    // Reload() calls so far
  uint64_t reloads_started_ = 0;  // of those, covered by a load the worker began
  uint64_t reloads_done_ = 0;     // of those, whose load was applied or rejected
  absl::Status last_reload_;
  AgentStats stats_;  // published by the reader between batches
  // Published by the reader once a second for the webserver.
  std::shared_ptr<const std::vector<observe::Metric>> metrics_;

  std::unique_ptr<observe::Webserver> web_;
  std::string versions_;
  std::optional<observe::DropWatch> drops_;
  absl::Status exit_status_;  // syscall_event_drops' exit action
};

absl::Status Agent::Impl::Configure() {
  if (options_.config_file) {
    std::vector<std::string> warnings;
    absl::Status s = LoadRunConfigFile(*options_.config_file, config_, warnings);
    for (const std::string& w : warnings) Say(absl::StrCat("warning: ", w), LogLevel::kWarning);
    if (!s.ok()) return absl::InvalidArgumentError(s.message());
  }
  for (const std::string& o : options_.config_keys) {
    if (absl::Status s = ApplyRunOverride(o, config_); !s.ok()) {
      return absl::InvalidArgumentError(s.message());
    }
  }
  if (absl::Status s = CheckRunConfig(config_); !s.ok()) {
    return absl::InvalidArgumentError(s.message());
  }
  if (config_.replay_engine && config_.replay_capture_file.empty()) {
    return absl::InvalidArgumentError(
        "engine.kind is replay but engine.replay.capture_file names no file");
  }
  if (!options_.rules_files.empty()) {
    config_.rules_files = options_.rules_files;
  } else {
    // As Falco: the config's rules_files that do not exist are skipped.
    std::vector<std::string> present;
    for (const std::string& path : config_.rules_files) {
      std::error_code ec;
      if (std::filesystem::exists(path, ec)) {
        present.push_back(path);
      } else {
        Say(absl::StrCat("warning: rules_files: ", path, " does not exist: skipped"),
            LogLevel::kWarning);
      }
    }
    if (!config_.rules_files.empty() && present.empty()) {
      return absl::InvalidArgumentError("rules_files: none of the files exists");
    }
    config_.rules_files = std::move(present);
  }
  if (config_.rules_files.empty() && options_.rules_texts.empty()) {
    config_.rules_files = {DefaultRulesDir()};
  }
  rules_options_.paths = config_.rules_files;
  for (const AgentOptions::RulesText& t : options_.rules_texts) {
    rules_options_.texts.push_back({t.name, t.yaml});
  }
  rules_options_.strict = options_.strict;
  rules_options_.minimum_priority = config_.priority;
  rules_options_.max_file_bytes = config_.rules_file_max_bytes;
  rules_options_.drop_failed_exit = config_.drop_failed_exit;
  rules_options_.append_output = config_.append_output;
  rules_options_.describe = options_.describe_rules;
  return absl::OkStatus();
}

// With a runtime answering on a configured socket, container metadata is
// read from the runtimes and the fields it fills count as filled when
// rules load.
void Agent::Impl::ConnectContainerRuntimes() {
  engine::containers::ContainerMetadataCache::Options options;
  options.sources = AnsweringRuntimes(config_);
  if (options.sources.empty()) return;
  fields_.SetFilled(engine::fields::FieldSource::kContainerRuntime);
  std::vector<std::string> names;
  for (const auto& source : options.sources) names.push_back(source->name());
  Say(absl::StrCat("container metadata from ", absl::StrJoin(names, ", ")));
  containers_ = std::make_unique<engine::containers::ContainerMetadataCache>(std::move(options));
}

absl::Status Agent::Impl::LoadRules() {
  std::vector<engine::rules::Diagnostic> diags;
  absl::StatusOr<std::unique_ptr<RunRules>> rules = LoadRunRules(rules_options_, fields_, diags);
  for (const engine::rules::Diagnostic& d : diags) {
    Say(d.ToString(), d.severity == engine::rules::Diagnostic::Severity::kError
                          ? LogLevel::kError
                          : LogLevel::kWarning);
  }
  if (!rules.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("the rules did not load: ", rules.status().message()));
  }
  rules_ = *std::move(rules);
  std::vector<std::string> warnings;
  syscalls_ = ChooseSyscalls(rules_->syscalls, config_.base_syscalls.custom_set,
                             config_.base_syscalls.repair, warnings, config_.base_syscalls_all);
  for (const std::string& w : warnings) Say(absl::StrCat("warning: ", w), LogLevel::kWarning);
  return absl::OkStatus();
}

outputs::OutputsConfig Agent::Impl::OutputsOf() const {
  outputs::OutputsConfig o;
  o.json_output = config_.json_output;
  o.json.include_output = config_.json_include_output_property;
  o.json.include_tags = config_.json_include_tags_property;
  o.json.include_output_fields = config_.json_include_output_fields_property;
  o.json.include_message = config_.json_include_message_property;
  o.json.time_format_iso_8601 = config_.time_format_iso_8601;
  o.time_format_iso_8601 = config_.time_format_iso_8601;
  o.buffered = config_.buffered_outputs;
  if (options_.config_outputs) {
    o.stdout_enabled = config_.stdout_enabled;
    o.file.enabled = config_.file_output.enabled;
    o.syslog_enabled = config_.syslog_enabled;
    o.program.enabled = config_.program_output.enabled;
    o.http.enabled = config_.http_output.enabled;
    o.kafka.enabled = config_.kafka_output.enabled;
  } else {
    o.stdout_enabled = false;
  }
  o.file.filename = config_.file_output.filename;
  o.file.keep_alive = config_.file_output.keep_alive;
  o.program.program = config_.program_output.program;
  o.program.keep_alive = config_.program_output.keep_alive;
  const auto& http = config_.http_output;
  o.http.url = http.url;
  o.http.timeout = std::chrono::milliseconds(config_.output_timeout_ms);
  o.http.json = config_.json_output;
  o.http.user_agent = http.user_agent;
  o.http.insecure = http.insecure;
  o.http.ca_cert = http.ca_cert;
  o.http.ca_bundle = http.ca_bundle;
  o.http.ca_path = http.ca_path;
  o.http.mtls = http.mtls;
  o.http.client_cert = http.client_cert;
  o.http.client_key = http.client_key;
  o.http.echo = http.echo;
  o.http.compress_uploads = http.compress_uploads;
  o.http.keep_alive = http.keep_alive;
  o.http.max_consecutive_timeouts = static_cast<uint32_t>(http.max_consecutive_timeouts);
  const bool kafka_enabled = o.kafka.enabled;
  o.kafka = KafkaOptionsOf(config_);
  o.kafka.enabled = kafka_enabled;
  o.kafka.on_log = [this](const std::string& line) { Say(line, LogLevel::kWarning); };
  o.queue_capacity = config_.outputs_queue_capacity;
  o.rate_limit.tokens_per_second = config_.outputs.rate;
  o.rate_limit.max_burst = config_.outputs.max_burst;
  o.on_failure = [this](const std::string& line) { Say(line, LogLevel::kWarning); };
  o.on_alert = options_.on_alert;
  return o;
}

absl::Status Agent::Impl::StartOutputs() {
  absl::StatusOr<std::unique_ptr<outputs::AlertOutputs>> started =
      outputs::AlertOutputs::Start(OutputsOf());
  if (!started.ok()) return absl::InvalidArgumentError(started.status().message());
  outputs_ = *std::move(started);
  return absl::OkStatus();
}

std::string Agent::Impl::SummaryLine(const kestrel_capture_settings& settings,
                                     uint32_t omitted) const {
  return absl::StrCat(DescribeRunRules(*rules_), "; ", syscalls_.size(), " syscalls; ",
                      DescribeNeeds(settings, omitted),
                      options_.pin_dir ? absl::StrCat("; pinned at ", *options_.pin_dir) : "");
}

// The probe options for the rules' syscalls and settings.
ProbeStart Agent::Impl::ProbeStartOf() {
  ProbeStart probe;
  probe.all_syscalls = false;
  probe.syscalls = agent::SyscallIds(syscalls_);
  probe.pin_dir = options_.pin_dir;
  // The config's ring keys, unless the embedder asked for other values.
  probe.buffer_bytes = options_.buffer_bytes == PMAN_DEFAULT_BUFFER_BYTES
                           ? config_.buffer_bytes.value_or(options_.buffer_bytes)
                           : options_.buffer_bytes;
  probe.cpus_per_buffer = options_.cpus_per_buffer == PMAN_CPUS_PER_BUFFER_AUTO
                              ? config_.cpus_per_buffer.value_or(options_.cpus_per_buffer)
                              : options_.cpus_per_buffer;
  const kestrel_capture_settings wanted = SettingsForNeeds({}, rules_->needs, BufferSnaplen());
  probe.io_data = wanted.capture_io_data != 0;
  probe.settings.values["snaplen"] = wanted.snaplen;
  probe.settings.values["drop_failed"] = wanted.drop_failed;
  probe.omitted_params = OmittedParamsForNeeds(rules_->needs, config_.capture.enabled);
  probe.log_ctx = this;
  probe.log_fn = [](void* ctx, pman_log_level level, const char* message) {
    if (level < PMAN_LOG_WARNING) return;
    static_cast<Impl*>(ctx)->Say(message,
                                 level >= PMAN_LOG_ERROR ? LogLevel::kError : LogLevel::kWarning);
  };
  return probe;
}

// Has the probe sample what the plan lets it, should the reader fall behind.
void Agent::Impl::PlanLoadShedding(LoadShedder& shedder) {
  SheddingPlan plan = SheddingPlanOf();
  Say(DescribeShedding(plan, config_.load_shedding));
  if (!config_.load_shedding.enabled) return;
  if (absl::Status s = shedder.Apply(std::move(plan)); !s.ok()) {
    Say(std::string(s.message()), LogLevel::kWarning);
  }
}

// The info block every capture file of the run starts with: this machine,
// the syscalls and settings the probe started with.
engine::capture_file::CaptureInfo Agent::Impl::CaptureInfoOf(
    const kestrel_capture_settings& settings) const {
  engine::capture_file::CaptureInfo info = engine::capture_file::CaptureInfoOfThisMachine();
  info.syscalls = agent::SyscallIds(syscalls_);
  const auto* bytes = reinterpret_cast<const uint8_t*>(&settings);
  info.settings.assign(bytes, bytes + sizeof(settings));
  info.boot_time_ns = settings.boot_time_ns;
  info.writer = "kestrel " KESTREL_VERSION;
  return info;
}

observe::MetricGroups Agent::Impl::MetricGroupsOf() const {
  observe::MetricGroups g;
  g.rules = config_.metrics.rules_counters;
  g.resources = config_.metrics.resource_utilization;
  g.state = config_.metrics.state_counters;
  g.kernel = config_.metrics.kernel_event_counters;
  g.kernel_per_cpu = config_.metrics.kernel_event_counters_per_cpu;
  g.libbpf = config_.metrics.libbpf_stats;
  return g;
}

absl::Status Agent::Impl::StartWebserver() {
  if (!config_.webserver.enabled) return absl::OkStatus();
  versions_ = VersionsDocument(KESTREL_VERSION);
  observe::WebserverOptions o;
  o.address = config_.webserver.listen_address;
  o.port = config_.webserver.listen_port;
  o.threads = config_.webserver.threadiness;
  o.healthz = config_.webserver.healthz_endpoint;
  o.metrics = config_.webserver.prometheus_metrics_enabled;
  o.ssl = config_.webserver.ssl_enabled;
  o.ssl_certificate = config_.webserver.ssl_certificate;
  o.healthy = [this] { return running_ && !stop_; };
  o.versions = [this] { return versions_; };
  o.metrics_text = [this] { return MetricsText(); };
  absl::StatusOr<std::unique_ptr<observe::Webserver>> web = observe::Webserver::Start(o);
  if (!web.ok()) return web.status();
  web_ = *std::move(web);
  Say(absl::StrCat("webserver on ", config_.webserver.ssl_enabled ? "https://" : "http://",
                   o.address, ":", o.port, " (", o.healthz, ", /versions",
                   o.metrics ? ", /metrics" : "", ")"));
  return absl::OkStatus();
}

std::vector<observe::Metric> Agent::Impl::CollectMetrics() {
  observe::MetricsInput in;
  in.version = KESTREL_VERSION;
  in.engine_version = EngineVersion();
  in.counters = &pipeline_->counters();
  pman_stats stats{};
  pman_handle* handle = handle_.get();
  if (pman_get_stats(handle, &stats, nullptr, 0) == 0) {
    in.probe = &stats;
    if (config_.metrics.kernel_event_counters_per_cpu && stats.n_cpus > 0) {
      in.per_cpu.resize(stats.n_cpus);
      if (pman_get_stats(handle, &stats, in.per_cpu.data(), in.per_cpu.size()) != 0) {
        in.per_cpu.clear();
      }
    }
    uint64_t ring_bytes = 0;
    pman_get_ring_backlog(handle, &in.ring_unread_bytes, &ring_bytes);
  }
  pman_get_settings_generation(handle, &in.settings_generation);
  in.channels = outputs_->Stats();
  in.rate_limited = outputs_->rate_limited();
  {
    const std::lock_guard lock(mu_);
    in.rules_loaded = stats_.rules_loaded;
    in.rules_enabled = stats_.rules_enabled;
    in.rules_skipped = stats_.rules_skipped;
    in.syscalls = stats_.syscalls;
    in.reloads = stats_.reloads;
    in.reloads_failed = stats_.reloads_failed;
  }
  in.threads = threads_->size();
  if (containers_ != nullptr) {
    const engine::containers::ContainerMetadataCache::Counters c = containers_->counters();
    in.have_containers = true;
    in.containers_cached = c.cached;
    in.containers_fetched = c.fetched;
    in.containers_unknown = c.unknown;
    in.containers_failed = c.failed;
    in.containers_evicted = c.evicted;
  }
  if (drops_) {
    in.drop_checks_alerting = drops_->detected();
    in.drop_actions = drops_->acted();
  }
  return observe::CollectMetrics(in);
}

std::string Agent::Impl::MetricsText() const {
  std::shared_ptr<const std::vector<observe::Metric>> metrics;
  {
    const std::lock_guard lock(mu_);
    metrics = metrics_;
  }
  if (metrics == nullptr) return "";
  return observe::PrometheusText(*metrics, MetricGroupsOf());
}

void Agent::Impl::EmitMetricsSnapshot() {
  const auto& m = config_.metrics;
  engine::alerts::Alert alert = observe::MetricsAlert(
      WallClockNs(), observe::MetricsFields(CollectMetrics(), MetricGroupsOf(),
                                            m.convert_memory_to_mb, m.include_empty_values));
  if (m.output_rule) Emit(alert);
  if (!m.output_file.empty()) {
    engine::alerts::JsonOptions json;
    json.include_output_fields = true;
    json.time_format_iso_8601 = config_.time_format_iso_8601;
    std::ofstream out(m.output_file, std::ios::app);
    out << engine::alerts::AlertToJson(alert, json) << '\n';
    if (!out.flush()) {
      Say(absl::StrCat("metrics.output_file ", Quote(m.output_file), ": cannot append"),
          LogLevel::kWarning);
    }
  }
}

void Agent::Impl::TakeDropActions(const observe::DropTotals& delta) {
  const std::string message = observe::DropMessage(delta);
  for (const std::string& action : drops_->config().actions) {
    if (action == "log") {
      Say(message, LogLevel::kWarning);
    } else if (action == "alert") {
      Emit(observe::DropAlert(WallClockNs(), delta));
    } else if (action == "exit") {
      Say(absl::StrCat(message, " Exiting (syscall_event_drops.actions: exit)."), LogLevel::kError);
      exit_status_ = absl::AbortedError(message);
      stop_ = true;
    }
  }
}

void Agent::Impl::FollowSyscallSet() {
  const int attached = pman_follow_syscall_set(handle_.get());
  if (attached < 0 || (attached == 1) == hook_attached_) return;
  hook_attached_ = attached == 1;
  Say(hook_attached_ ? "syscall-exit hook attached again: a syscall is captured"
                     : "syscall-exit hook detached: no syscall is captured");
}

void Agent::Impl::Tick() {
  // Every second as well: a table written straight into the map (bpftool)
  // moves no generation.
  FollowSyscallSet();
  pman_stats stats{};
  if (drops_ && pman_get_stats(handle_.get(), &stats, nullptr, 0) == 0) {
    const kestrel_cpu_counters& t = stats.total;
    observe::DropTotals now;
    now.drops = kestrel_counters_dropped(&t);
    now.events = t.records_written + now.drops;
    now.drops_ring_full = t.drops_ring_full;
    now.drops_too_large = t.drops_too_large;
    now.drops_no_ring = t.drops_no_ring;
    now.drops_settings_busy = t.drops_settings_busy;
    now.drops_sampling = t.drops_sampling;
    if (std::optional<observe::DropTotals> delta = drops_->Check(now, BootClockNs())) {
      TakeDropActions(*delta);
    }
  }
  if (web_ != nullptr && config_.webserver.prometheus_metrics_enabled) {
    auto metrics = std::make_shared<const std::vector<observe::Metric>>(CollectMetrics());
    const std::lock_guard lock(mu_);
    metrics_ = std::move(metrics);
  }
}

absl::Status Agent::Impl::Start() {
  if (running_ || stopped_) return absl::AlreadyExistsError("the agent was started already");
  if (absl::Status s = StartOutputs(); !s.ok()) return s;
  if (absl::Status s = StartWebserver(); !s.ok()) return s;
  if (absl::Status s = CheckCanLoadProbe(); !s.ok()) {
    return absl::FailedPreconditionError(s.message());
  }
  std::string attached;
  handle_ = LoadProbe(ProbeStartOf(), &attached);
  if (!handle_) return absl::InternalError("the probe did not load");
  Say(attached);
  kestrel_capture_settings settings{};
  pman_get_capture_settings(handle_.get(), &settings);
  // Seeded after the probe is attached: a thread is either in the seed or
  // created under the probe's eyes.
  threads_ = std::make_unique<engine::ThreadTable>(engine::ThreadTableOptions{
      .max_entries = config_.thread_table_size, .boot_time_ns = settings.boot_time_ns});
  threads_->SeedFromProc();
  // The probe's load (the kernel's BTF parsed, programs relocated) and the
  // /proc walk leave tens of MB free in the heap that glibc keeps below
  // its top: handed back once, so the agent at rest holds what it uses.
  malloc_trim(0);
  address_names_ = std::make_unique<engine::dns::AddressNames>();
  pipeline_ = std::make_unique<RunPipeline>(fields_, *threads_, *outputs_, settings.boot_time_ns,
                                            !config_.rule_matching_all);
  pipeline_->SetRules(rules_);
  pipeline_->SetAddressNames(address_names_.get());
  pipeline_->SetContainerMetadata(containers_.get());
  if (config_.capture.enabled) {
    capture_ = std::make_unique<AlertCapture>(config_.capture, *threads_, CaptureInfoOf(settings),
                                              [this](const std::string& line) { Say(line); });
    pipeline_->SetCapture(capture_.get());
  }
  shedder_ = std::make_unique<LoadShedder>(config_.load_shedding, handle_.get());
  if (options_.lock_settings) {
    // Frozen, the probe cannot be switched to dropping mode.
    Say("load shedding off: --lock-settings froze the probe");
    if (pman_lock_settings(handle_.get()) != 0) {
      return absl::InternalError("the probe's settings could not be locked");
    }
  } else {
    PlanLoadShedding(*shedder_);
  }
  // From here on every change to the probe is the engine's own, or raises
  // an alert. Put back unless settings are frozen (nothing can change them)
  // or the operator lets other processes tune the probe.
  tamper_ = std::make_unique<TamperWatch>(
      handle_.get(), !options_.lock_settings && !config_.allow_outside_changes);
  if (options_.watch_rules_files && config_.watch_config_files && !rules_options_.paths.empty()) {
    // watch_config_files: a change to a config file reloads the rules too
    // (its other keys take effect at the next start).
    std::vector<std::string> watched = rules_options_.paths;
    watched.insert(watched.end(), config_.loaded_config_files.begin(),
                   config_.loaded_config_files.end());
    if (absl::StatusOr<std::unique_ptr<RulesWatcher>> created = RulesWatcher::Create(watched);
        created.ok()) {
      watcher_ = *std::move(created);
    } else {
      Say(absl::StrCat("warning: rules files are not watched (SIGHUP still reloads): ",
                       created.status().message()),
          LogLevel::kWarning);
    }
  }
  reloads_.emplace(rules_options_, fields_);
  uint32_t omitted = 0;
  pman_get_omitted_params(handle_.get(), &omitted);
  Say(SummaryLine(settings, omitted));
  PublishStats();
  if (!config_.syscall_event_drops.actions.empty()) {
    observe::DropConfig drops;
    drops.threshold = config_.syscall_event_drops.threshold;
    drops.actions = config_.syscall_event_drops.actions;
    drops.rate = config_.syscall_event_drops.rate;
    drops.max_burst = config_.syscall_event_drops.max_burst;
    drops.simulate_drops = config_.syscall_event_drops.simulate_drops;
    pman_stats stats{};
    observe::DropTotals start;
    if (pman_get_stats(handle_.get(), &stats, nullptr, 0) == 0) {
      start.drops = kestrel_counters_dropped(&stats.total);
      start.events = stats.total.records_written + start.drops;
      start.drops_ring_full = stats.total.drops_ring_full;
      start.drops_too_large = stats.total.drops_too_large;
      start.drops_no_ring = stats.total.drops_no_ring;
      start.drops_settings_busy = stats.total.drops_settings_busy;
      start.drops_sampling = stats.total.drops_sampling;
    }
    drops_.emplace(std::move(drops), start);
  }
  if (web_ != nullptr && config_.webserver.prometheus_metrics_enabled) {
    metrics_ = std::make_shared<const std::vector<observe::Metric>>(CollectMetrics());
  }
  running_ = true;
  reader_ = std::thread([this] { ReaderLoop(); });
  return absl::OkStatus();
}

void Agent::Impl::PrintStatsLine(double rate) {
  pman_stats stats{};
  const bool have = handle_ && pman_get_stats(handle_.get(), &stats, nullptr, 0) == 0;
  std::string line = FormatRunStats(pipeline_->counters(), have ? &stats : nullptr, rate,
                                    outputs_->Stats(), outputs_->rate_limited(), *threads_);
  if (capture_ != nullptr) {
    absl::StrAppend(&line, "; captures written ", capture_->written(), " failed ",
                    capture_->failed());
  }
  absl::StrAppend(&line, "; load shedding started ", shedder_->counters().starts, " stopped ",
                  shedder_->counters().stops, shedder_->on() ? " (on)" : "",
                  "; probe changed by another process ", tamper_->changes_seen(),
                  " times, put back ", tamper_->repairs());
  if (containers_ != nullptr) {
    const engine::containers::ContainerMetadataCache::Counters c = containers_->counters();
    const HeldEvents::Counters& held = pipeline_->held_counters();
    absl::StrAppend(
        &line, "; containers known ", c.cached, " (fetched ", c.fetched, ", unknown ", c.unknown,
        ", failed ", c.failed, ", gone ", c.evicted, "), alerts before the metadata arrived ",
        pipeline_->counters().alerts_before_metadata, "; events held for it ", held.held,
        " (judged with it ", held.with_metadata, ", without ", held.without_metadata, ", alerting ",
        pipeline_->counters().alerts_judged_late, "; over the bounds ", held.not_held, ")");
  }
  Say(line);
}

// Copies the counters where Stats() reads them: the reader owns the
// pipeline's, which no other thread may touch.
void Agent::Impl::PublishStats() {
  const std::lock_guard lock(mu_);
  if (pipeline_) {
    CopyCounters(pipeline_->counters(), stats_);
  }
  stats_.rules_loaded = rules_->ruleset->rules().size();
  stats_.rules_enabled = 0;
  for (const engine::rules::Rule& r : rules_->ruleset->rules()) stats_.rules_enabled += r.enabled;
  stats_.rules_evaluated = rules_->evaluated;
  stats_.rules_skipped = rules_->ruleset->skipped();
  stats_.syscalls = syscalls_.size();
}

// Puts rules a reload compiled in force: the syscalls they add are turned
// on first, the new rules judge every record from then on, and only then
// are the syscalls they drop turned off, so no record falls between the
// two. A failed load leaves the running rules as they are.
void Agent::Impl::ApplyReload(RulesLoadWorker::Result loaded) {
  auto failed = [&](std::string why) {
    Say(absl::StrCat("reload failed, the current rules keep running: ", why), LogLevel::kError);
    const std::lock_guard lock(mu_);
    ++stats_.reloads_failed;
    last_reload_ = absl::InvalidArgumentError(why);
  };
  if (!loaded.rules.ok()) {
    std::string why(loaded.rules.status().message());
    for (const engine::rules::Diagnostic& d : loaded.diags) {
      if (d.severity == engine::rules::Diagnostic::Severity::kError) {
        why = d.ToString();
        break;
      }
    }
    failed(why);
    return;
  }
  std::shared_ptr<const RunRules> rules = *std::move(loaded.rules);
  std::vector<std::string> warnings;
  std::vector<ChosenSyscall> syscalls =
      ChooseSyscalls(rules->syscalls, config_.base_syscalls.custom_set,
                     config_.base_syscalls.repair, warnings, config_.base_syscalls_all);
  const SyscallChange change = DiffSyscallSets(syscalls_, syscalls);
  // What another process changed since the last batch is told (and put
  // back) before the engine's own changes are made.
  for (const engine::alerts::Alert& a : tamper_->Check(WallClockNs())) Emit(a);
  OwnChange own;
  own.syscalls = change.added;
  own.syscalls.insert(own.syscalls.end(), change.removed.begin(), change.removed.end());
  own.settings = own.drop_classes = own.omitted_params = true;
  pman_handle* handle = handle_.get();
  if (absl::Status s = MarkSyscalls(handle, change.added, true); !s.ok()) {
    failed(std::string(s.message()));
    MarkSyscalls(handle, change.added, false).IgnoreError();
    tamper_->ExpectOwn(own);
    return;
  }
  kestrel_capture_settings settings{};
  if (pman_get_capture_settings(handle, &settings) == 0) {
    const kestrel_capture_settings wanted =
        SettingsForNeeds(settings, rules->needs, BufferSnaplen());
    if (wanted.snaplen != settings.snaplen || wanted.drop_failed != settings.drop_failed ||
        wanted.capture_io_data != settings.capture_io_data) {
      pman_update_capture_settings(handle, &wanted);
    }
  }
  // Like the syscalls: a parameter the new rules read comes back before
  // they judge a record, one only the old rules read goes after.
  uint32_t omitted = 0;
  const uint32_t omit = OmittedParamsForNeeds(rules->needs, config_.capture.enabled);
  const bool change_omitted = pman_get_omitted_params(handle, &omitted) == 0 && omitted != omit;
  const bool omits_more = (omit & ~omitted) != 0;
  bool omitted_changed = false;
  if (change_omitted && !omits_more) omitted_changed = pman_set_omitted_params(handle, omit) == 0;
  pipeline_->SetRulesFrom(rules, BootClockNs());
  if (change_omitted && omits_more) omitted_changed = pman_set_omitted_params(handle, omit) == 0;
  std::string paths;
  if (omitted_changed) {
    paths = omit & KESTREL_OMIT_OPEN_PATH ? "; open paths omitted" : "; open paths kept";
  }
  if (absl::Status s = MarkSyscalls(handle, change.removed, false); !s.ok()) {
    Say(std::string(s.message()), LogLevel::kWarning);
  }
  {
    const std::lock_guard lock(mu_);
    rules_ = rules;
  }
  syscalls_ = std::move(syscalls);
  PlanLoadShedding(*shedder_);
  tamper_->ExpectOwn(own);
  Say(absl::StrCat("rules reloaded: ", DescribeRunRules(*rules), "; syscalls ",
                   DescribeChange(change), paths));
  const std::lock_guard lock(mu_);
  ++stats_.reloads;
  last_reload_ = absl::OkStatus();
}

void Agent::Impl::ReaderLoop() {
  using Clock = std::chrono::steady_clock;
  const auto interval = options_.stats_interval_s
                            ? std::chrono::duration_cast<Clock::duration>(
                                  std::chrono::duration<double>(*options_.stats_interval_s))
                            : Clock::duration::max();
  auto next_stats = options_.stats_interval_s ? Clock::now() + interval : Clock::time_point::max();
  auto next_tick = Clock::now() + std::chrono::seconds(1);
  const auto metrics_interval = std::chrono::duration_cast<Clock::duration>(
      std::chrono::duration<double>(config_.metrics.interval_s));
  auto next_metrics =
      config_.metrics.enabled ? Clock::now() + metrics_interval : Clock::time_point::max();
  observe::IdleWatch idle(config_.syscall_event_timeouts_max_consecutives);
  uint64_t last_event_wall_ns = 0;
  uint64_t events_at_last_stats = 0;
  auto last_stats = Clock::now();
  pman_handle* handle = handle_.get();
  auto next = [handle]() -> const kestrel_record_header* {
    void* record = nullptr;
    int16_t ring = 0;
    if (pman_consume_first_event(handle, &record, &ring) != 0) return nullptr;
    return static_cast<const kestrel_record_header*>(record);
  };
  // Flags and files are looked at between batches, not per record.
  constexpr int kBatch = 4096;
  while (!stop_) {
    int taken = 0;
    while (taken < kBatch) {
      const kestrel_record_header* header = next();
      if (header == nullptr) break;
      pipeline_->Take(header);
      ++taken;
    }
    // Looked at right before each change of the engine's own, so a change
    // by another process is never taken for one.
    pipeline_->JudgeHeld();
    if (taken > 0) last_event_wall_ns = WallClockNs();
    if (idle.Read(taken > 0)) {
      Say(absl::StrCat("syscall_event_timeouts: ", config_.syscall_event_timeouts_max_consecutives,
                       " consecutive reads found the rings empty; last event at ",
                       last_event_wall_ns ? engine::alerts::Rfc3339Utc(last_event_wall_ns)
                                          : std::string("none")));
    }
    for (const engine::alerts::Alert& a : tamper_->Check(WallClockNs())) Emit(a);
    if (uint64_t generation = 0; pman_get_settings_generation(handle, &generation) == 0 &&
                                 generation != followed_generation_) {
      followed_generation_ = generation;
      FollowSyscallSet();
    }
    const bool asked = reload_asked_.exchange(false);
    if (asked || (watcher_ && watcher_->Changed())) {
      RunRulesOptions options;
      {
        const std::lock_guard lock(mu_);
        reloads_started_ = reloads_asked_;
        options = rules_options_;
      }
      reloads_->Request(std::move(options));
    }
    if (std::optional<RulesLoadWorker::Result> loaded = reloads_->Take()) {
      ApplyReload(*std::move(loaded));
      PublishStats();  // before Reload() returns: its caller reads them
      // Every request made before the worker went idle is answered.
      if (!reloads_->Busy()) {
        const std::lock_guard lock(mu_);
        reloads_done_ = reloads_started_;
        reloaded_.notify_all();
      }
    }
    reloads_->Retire(pipeline_->TakeRetiredRules());
    if (absl::StatusOr<std::optional<engine::alerts::Alert>> shed =
            shedder_->Check(BootClockNs(), WallClockNs(), pipeline_->counters().records);
        !shed.ok()) {
      Say(absl::StrCat(shed.status().message(), "; load shedding is off from now on"),
          LogLevel::kWarning);
    } else if (*shed) {
      tamper_->Expect();
      Emit(**shed);
    }
    if (reopen_asked_.exchange(false)) outputs_->Reopen();
    if (capture_) capture_->CloseIfPast(BootClockNs());
    if (Clock::now() >= next_stats) {
      const auto now = Clock::now();
      const double seconds = std::chrono::duration<double>(now - last_stats).count();
      const uint64_t events = pipeline_->counters().events;
      PrintStatsLine(seconds > 0 ? static_cast<double>(events - events_at_last_stats) / seconds
                                 : 0);
      events_at_last_stats = events;
      last_stats = now;
      next_stats = now + interval;
    }
    if (Clock::now() >= next_tick) {
      next_tick = Clock::now() + std::chrono::seconds(1);
      Tick();
    }
    if (Clock::now() >= next_metrics) {
      next_metrics = Clock::now() + metrics_interval;
      EmitMetricsSnapshot();
    }
    PublishStats();
    if (stop_) break;
    if (taken < kBatch) pman_wait_for_events(handle, 50);
  }
  reloads_.reset();
  // What the probe wrote before it stopped is still judged.
  const bool settled = pman_detach_and_settle(handle) == 0;
  while (const kestrel_record_header* header = next()) pipeline_->Take(header);
  pipeline_->JudgeHeld(/*flush=*/true);
  if (capture_) capture_->Close();
  // Short enough that the whole shutdown stays within 2 s, whatever a
  // channel does: what is still queued then is counted as dropped.
  outputs_->Close(std::chrono::seconds(1));
  PrintStatsLine(-1);
  PublishStats();
  // Every record the probe attempted is accounted for: consumed here (the
  // whole ring was drained above) or dropped by cause.
  ReadTally tally;
  tally.consumed = pipeline_->counters().records - pipeline_->counters().drop_markers;
  tally.undecodable = pipeline_->counters().undecodable;
  probe_report_ = FormatStats(handle, tally);
  stop_status_ = !exit_status_.ok() ? exit_status_
                 : settled          ? absl::OkStatus()
                           : absl::InternalError("the probe did not settle before it was read out");
  const std::lock_guard lock(mu_);
  running_ = false;
  reloaded_.notify_all();
}

absl::Status Agent::Impl::Stop() {
  if (stopped_) return stop_status_;
  stopped_ = true;
  stop_ = true;
  if (reader_.joinable()) reader_.join();
  if (web_ != nullptr) web_->Stop();
  return stop_status_;
}

absl::Status Agent::Impl::Replay(const std::string& path) {
  if (running_ || stopped_) return absl::AlreadyExistsError("the agent was started already");
  stopped_ = true;
  if (absl::Status s = StartOutputs(); !s.ok()) return s;
  ReplayResult result = ReplayCapture(path, fields_, rules_, !config_.rule_matching_all,
                                      config_.thread_table_size, *outputs_);
  {
    const std::lock_guard lock(mu_);
    CopyCounters(result.counters, stats_);
  }
  for (const std::string& line : result.lines) Say(line);
  return result.status;
}

absl::Status Agent::Impl::Reload() {
  if (!running_) {
    // Not started (or stopped): the next start uses what loads now.
    std::vector<engine::rules::Diagnostic> diags;
    absl::StatusOr<std::unique_ptr<RunRules>> rules = LoadRunRules(rules_options_, fields_, diags);
    for (const engine::rules::Diagnostic& d : diags) Say(d.ToString(), LogLevel::kWarning);
    if (!rules.ok()) return absl::InvalidArgumentError(rules.status().message());
    rules_ = *std::move(rules);
    std::vector<std::string> warnings;
    syscalls_ = ChooseSyscalls(rules_->syscalls, config_.base_syscalls.custom_set,
                               config_.base_syscalls.repair, warnings, config_.base_syscalls_all);
    PublishStats();
    return absl::OkStatus();
  }
  std::unique_lock lock(mu_);
  const uint64_t mine = ++reloads_asked_;
  reload_asked_ = true;
  reloaded_.wait(lock, [&] { return reloads_done_ >= mine || !running_; });
  if (reloads_done_ < mine) return absl::CancelledError("the agent stopped before the reload");
  return last_reload_;
}

absl::Status Agent::Impl::SetRuleEnabled(std::string_view name, bool enabled) {
  // rules_ is the reader's once it runs: the names are looked up under the
  // rules the last load compiled, which only the reader replaces.
  bool known = false;
  {
    std::shared_ptr<const RunRules> rules;
    {
      const std::lock_guard lock(mu_);
      rules = rules_;
    }
    for (const engine::rules::Rule& r : rules->ruleset->rules()) known = known || r.name == name;
  }
  if (!known) return absl::NotFoundError(absl::StrCat("no rule is named ", Quote(name)));
  {
    const std::lock_guard lock(mu_);
    // The last word on a rule is the one kept: toggling never grows this.
    auto& by_name = rules_options_.enabled_by_name;
    std::erase_if(by_name, [&](const auto& entry) { return entry.first == name; });
    by_name.emplace_back(std::string(name), enabled);
  }
  return Reload();
}

absl::Status CheckConfigAssignments(const std::vector<std::string>& assignments) {
  RunConfig scratch;
  for (const std::string& a : assignments) {
    if (absl::Status s = ApplyRunOverride(a, scratch); !s.ok()) return s;
  }
  return absl::OkStatus();
}

Agent::Agent(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Agent::~Agent() { Stop().IgnoreError(); }

absl::StatusOr<std::unique_ptr<Agent>> Agent::Open(AgentOptions options) {
  auto impl = std::make_unique<Impl>(std::move(options));
  if (absl::Status s = impl->Configure(); !s.ok()) return s;
  if (impl->options_.container_runtimes) impl->ConnectContainerRuntimes();
  if (absl::Status s = impl->LoadRules(); !s.ok()) return s;
  if (absl::Status s = CheckCapturePrefix(impl->config_.capture); !s.ok()) return s;
  impl->PublishStats();
  return std::unique_ptr<Agent>(new Agent(std::move(impl)));
}

absl::Status Agent::CheckOutputs() const {
  if (absl::Status s = outputs::AlertOutputs::Check(impl_->OutputsOf()); !s.ok()) {
    return absl::InvalidArgumentError(s.message());
  }
  return absl::OkStatus();
}

std::optional<std::string> Agent::ConfiguredReplay() const {
  if (!impl_->config_.replay_engine) return std::nullopt;
  return impl_->config_.replay_capture_file;
}

std::string Agent::SyscallSetText() const { return FormatSyscallSet(impl_->syscalls_); }

std::vector<uint32_t> Agent::SyscallIds() const { return agent::SyscallIds(impl_->syscalls_); }

std::vector<std::string> Agent::Summary() const {
  const RunRules& rules = *impl_->rules_;
  return {absl::StrCat(
              DescribeRunRules(rules), "; ", impl_->syscalls_.size(), " syscalls; ",
              DescribeNeeds(SettingsForNeeds({}, rules.needs, impl_->BufferSnaplen()),
                            OmittedParamsForNeeds(rules.needs, impl_->config_.capture.enabled))),
          DescribeShedding(impl_->SheddingPlanOf(), impl_->config_.load_shedding)};
}

absl::Status Agent::Start() { return impl_->Start(); }
absl::Status Agent::Replay(const std::string& path) { return impl_->Replay(path); }
absl::Status Agent::Stop() { return impl_->Stop(); }
bool Agent::running() const { return impl_->running_; }
void Agent::RequestReload() { impl_->reload_asked_ = true; }
absl::Status Agent::Reload() { return impl_->Reload(); }
absl::Status Agent::SetRuleEnabled(std::string_view name, bool enabled) {
  return impl_->SetRuleEnabled(name, enabled);
}
void Agent::ReopenOutputs() { impl_->reopen_asked_ = true; }

absl::StatusOr<std::string> Agent::DescribeRules(std::optional<std::string_view> rule,
                                                 std::optional<bool> json) const {
  std::shared_ptr<const RunRules> rules;
  {
    const std::lock_guard lock(impl_->mu_);
    rules = impl_->rules_;
  }
  return agent::DescribeRules(*rules, rule, json.value_or(impl_->config_.json_output));
}

std::string Agent::SupportJson() const {
  return SupportDocument(KESTREL_VERSION, impl_->config_, impl_->rules_options_);
}

AgentStats Agent::Stats() const {
  const std::lock_guard lock(impl_->mu_);
  return impl_->stats_;
}

std::string Agent::ProbeReport() const { return impl_->stopped_ ? impl_->probe_report_ : ""; }

}  // namespace kestrel::agent
