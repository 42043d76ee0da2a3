// The configuration of `kestrel run`: a YAML file with Falco's key names
// (falco.yaml's, where the meaning is the same), then `-o key=value`
// overrides on top, in order.
#ifndef KESTREL_AGENT_CONFIG_RUN_CONFIG_H_
#define KESTREL_AGENT_CONFIG_RUN_CONFIG_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "agent/outputs/channels.h"
#include "engine/alerts/append_output.h"
#include "engine/rules/input_file.h"
#include "engine/rules/priority.h"

namespace kestrel::agent {

// Capture files on alerts: Falco's `capture` keys, and Kestrel's own for
// the window of records kept from before the alert (window_*).
struct RunCaptureConfig {
  bool enabled = false;
  // Files are PREFIX_<alert time ns>_<record number>.kcap, as Falco names
  // its .scap files.
  std::string path_prefix = "/tmp/kestrel";
  bool all_rules = false;               // mode: rules (those with capture: true) | all_rules
  uint64_t default_duration_ms = 5000;  // after the alert, for rules without capture_duration
  double window_seconds = 5;            // of records before the alert; (0, 600]
  uint64_t window_bytes = 64ull << 20;  // of memory the window holds; 1 MiB .. 4 GiB
  uint64_t max_file_size_mb = 0;        // a capture stops there; 0: no bound
};

// The `load_shedding.*` keys (Kestrel's own): when the reader falls behind,
// the syscalls no rule at or above keep_priority needs are sampled
// (run_load_shedding.h).
struct LoadSheddingConfig {
  bool enabled = true;
  double start_fill = 0.5;  // sampling starts when a ring is this full
  double stop_fill = 0.1;   // and stops when every ring is at most this full
  double min_seconds = 1;   // after at least this long: no flapping
  uint32_t sampling_ratio = 16;
  // Rules at or above it keep every call of their syscalls; with Debug
  // (the default) every evaluated rule does, and only what no rule needs
  // is thinned.
  engine::rules::Priority keep_priority = engine::rules::Priority::kDebug;
};

// append_output: what Falco adds to the alerts of the rules an entry
// matches (engine/alerts/append_output.h). Its strings have `${VAR}`
// replaced by the environment's value (nothing when unset) and `$${` by `${`,
// as Falco's config loader does.
using AppendOutput = engine::alerts::AppendOutput;

// log_level, log_stderr, log_syslog: where the agent's own lines go.
struct LogConfig {
  int level = 6;  // syslog's numbering: 0 emergency .. 7 debug; info (6)
  bool to_stderr = true;
  bool to_syslog = false;  // Falco's default is true; a foreground run stays quiet
};

struct RunConfig {
  std::vector<std::string> rules_files;  // files or directories, loaded in order
  // config_files: more config files (or directories of *.yaml) loaded after
  // this one, each key overriding; watch_config_files: a change to a rules
  // or config file reloads the rules.
  std::vector<std::string> config_files;
  bool watch_config_files = true;
  std::vector<std::string> loaded_config_files;  // the main one, then config_files'; set by Load
  // engine.kind: modern_ebpf (the probe) or replay, which replays
  // engine.replay.capture_file.
  bool replay_engine = false;
  std::string replay_capture_file;
  // engine.modern_ebpf.buf_size_preset and cpus_for_each_buffer, when set.
  std::optional<uint64_t> buffer_bytes;
  std::optional<uint32_t> cpus_per_buffer;
  std::optional<uint32_t> snaplen;  // falco_libs.snaplen
  bool base_syscalls_all = false;   // base_syscalls.all
  bool json_output = false;
  bool json_include_output_property = true;
  bool json_include_tags_property = true;
  bool json_include_output_fields_property = true;
  bool json_include_message_property = false;
  bool time_format_iso_8601 = false;
  std::vector<AppendOutput> append_output;
  LogConfig log;
  // webserver.*: /healthz, /versions and (prometheus_metrics_enabled)
  // /metrics on a local HTTP endpoint.
  struct {
    bool enabled = false;  // Falco's default is true: a foreground run opens no port
    uint32_t threadiness = 0;
    uint32_t listen_port = 8765;
    std::string listen_address = "0.0.0.0";
    std::string healthz_endpoint = "/healthz";
    bool prometheus_metrics_enabled = false;
    bool ssl_enabled = false;
    std::string ssl_certificate = "/etc/falco/falco.pem";
  } webserver;
  // metrics.*: the same figures as a periodic internal alert or file line.
  struct {
    bool enabled = false;
    double interval_s = 3600;
    bool output_rule = true;
    std::string output_file;
    bool rules_counters = true;
    bool resource_utilization = true;
    bool state_counters = true;
    bool kernel_event_counters = true;
    bool kernel_event_counters_per_cpu = false;
    bool libbpf_stats = true;
    bool convert_memory_to_mb = true;
    bool include_empty_values = false;
  } metrics;
  // syscall_event_drops.*: what to do when the probe drops records.
  struct {
    double threshold = 0.1;  // the share of dropped records that counts
    std::vector<std::string> actions = {"log", "alert"};  // ignore | log | alert | exit
    double rate = 0.03333;                                // actions per second
    double max_burst = 1;
    bool simulate_drops = false;
  } syscall_event_drops;
  uint64_t syscall_event_timeouts_max_consecutives = 1000;
  bool rule_matching_all = false;  // rule_matching: first (Falco's default) | all
  engine::rules::Priority priority = engine::rules::Priority::kDebug;
  bool stdout_enabled = true;
  struct {
    bool enabled = false;
    std::string filename;
    bool keep_alive = false;
  } file_output;
  // Off by default, unlike Falco: a foreground `kestrel run` prints its
  // alerts and does not fill the system log unless asked to.
  bool syslog_enabled = false;
  struct {
    bool enabled = false;
    std::string url;
    std::string user_agent = "falcosecurity/falco";  // as Falco sends it: receivers may check
    bool insecure = false;
    std::string ca_cert;
    std::string ca_bundle;
    std::string ca_path = "/etc/ssl/certs";
    bool mtls = false;
    std::string client_cert = "/etc/ssl/certs/client.crt";
    std::string client_key = "/etc/ssl/certs/client.key";
    bool echo = false;
    bool compress_uploads = false;
    bool keep_alive = false;
    uint64_t max_consecutive_timeouts = 5;
  } http_output;
  struct {
    bool enabled = false;
    std::string program;
    bool keep_alive = false;
  } program_output;
  // kafka_output.*: Kestrel's own (Falco has no Kafka output). Each alert's
  // JSON to a topic, keyed by its rule's name.
  struct {
    bool enabled = false;
    std::vector<std::string> brokers;  // bootstrap servers, host:port
    std::string topic;
    // Extra librdkafka properties, passed through; one librdkafka does not
    // know is an error at start.
    std::vector<std::pair<std::string, std::string>> properties;
    uint64_t queue_capacity = 100000;      // the producer's queue, in alerts
    uint64_t message_timeout_ms = 300000;  // an alert is retried until then
  } kafka_output;
  struct {
    std::vector<std::string> custom_set;  // names; "!name" removes
    bool repair = false;
  } base_syscalls;
  bool buffered_outputs = false;
  struct {
    double rate = 0;  // alerts per second per rule; 0 = no limit
    double max_burst = 1000;
  } outputs;
  // outputs_queue.capacity: alerts each channel holds while it is slow; the
  // oldest goes first. 0 is Falco's "unbounded": no count limit, but each
  // channel still holds at most 64 MiB of alerts (ChannelWorker), so memory
  // stays bounded whatever a channel does.
  uint64_t outputs_queue_capacity = 1024;
  uint64_t output_timeout_ms = 2000;  // output_timeout: one HTTP request's limit
  // falco_libs.thread_table_size: past it, exited threads are evicted
  // first, then live ones (counted in the stats line).
  uint64_t thread_table_size = 65536;
  // allow_outside_changes: another process may tune the running probe; by
  // default such a change is alerted on and put back.
  bool allow_outside_changes = false;
  // rules_file_max_bytes: each rules file's size limit (16 MiB; Falco's
  // largest file is about 0.1 MiB).
  uint64_t rules_file_max_bytes = engine::rules::kDefaultMaxInputFileBytes;
  // container_engines.docker.sockets / container_engines.podman.sockets:
  // the Docker API sockets container metadata is read from;
  // container_engines.cri.sockets: the CRI's (containerd, CRI-O, k3s),
  // where Falco looks for them.
  std::vector<std::string> docker_sockets = {"/var/run/docker.sock"};
  std::vector<std::string> podman_sockets = {"/run/podman/podman.sock"};
  std::vector<std::string> cri_sockets = {"/run/containerd/containerd.sock", "/run/crio/crio.sock",
                                          "/run/k3s/containerd/containerd.sock"};
  // engine.modern_ebpf.drop_failed_exit: Falco's; failed calls are dropped
  // in the probe even where a rule could match one.
  bool drop_failed_exit = false;
  RunCaptureConfig capture;
  LoadSheddingConfig load_shedding;
};

// Reads `path` into `config`, then the files its config_files names. Keys
// Kestrel does not know are skipped, each with one line in `warnings`
// ("FILE:LINE:COL: unknown key \"a.b\" ignored"); a known key with a bad
// value, or a Falco key set to what Kestrel cannot do, is an error naming
// the file, line and key.
absl::Status LoadRunConfigFile(const std::string& path, RunConfig& config,
                               std::vector<std::string>& warnings);

// The same from YAML text, `path` naming it in messages (tests, fuzzing).
absl::Status LoadRunConfigText(std::string_view yaml, const std::string& path, RunConfig& config,
                               std::vector<std::string>& warnings);

// kafka_output's keys as the Kafka channel takes them.
outputs::KafkaOptions KafkaOptionsOf(const RunConfig& config);

// The rules that bind keys together, checked once every key is set: a
// load_shedding.stop_fill below its start_fill.
absl::Status CheckRunConfig(const RunConfig& config);

// Applies one `-o key=value` (the value is YAML: `-o rules_files=[a,b]`), or
// Falco's `-o key[]=value`, which appends to a list key. An unknown key, a
// bad value or `[]` on a key that is no list is an error naming it.
absl::Status ApplyRunOverride(std::string_view assignment, RunConfig& config);

// The config as loaded: one JSON object, every key (dotted, as -o names
// it) with its effective value, in RunConfigKeys' order.
std::string RunConfigJson(const RunConfig& config);

// Every key the config takes, dotted, in the order --help lists them.
std::vector<std::string> RunConfigKeys();

}  // namespace kestrel::agent

#endif  // KESTREL_AGENT_CONFIG_RUN_CONFIG_H_
