// The figures Kestrel publishes about itself (Falco's metrics): one list,
// built by the reader between batches, written as Prometheus text for the
// webserver's /metrics and as flat key/value pairs for the periodic
// metrics snapshot (metrics.output_rule, metrics.output_file).
#ifndef KESTREL_AGENT_OBSERVE_METRICS_H_
#define KESTREL_AGENT_OBSERVE_METRICS_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "agent/outputs/alert_outputs.h"
#include "agent/pipeline/pipeline.h"
#include "engine/alerts/alert.h"
#include "libpman.h"

namespace kestrel::agent::observe {

// Falco's metrics.*_enabled switches, as far as Kestrel has the figures.
enum class MetricGroup {
  kAlways,        // versions, the outputs' queue drops
  kRules,         // rules_counters_enabled: alerts by rule, rules loaded
  kResources,     // resource_utilization_enabled: the process's memory
  kState,         // state_counters_enabled: threads, containers, syscalls
  kKernel,        // kernel_event_counters_enabled: the probe's counters
  kKernelPerCpu,  // kernel_event_counters_per_cpu_enabled
  kLibbpf,        // libbpf_stats_enabled: the rings
};

struct MetricGroups {
  bool rules = true;
  bool resources = true;
  bool state = true;
  bool kernel = true;
  bool kernel_per_cpu = false;
  bool libbpf = true;
  bool Has(MetricGroup g) const;
};

enum class MetricType { kCounter, kGauge };

struct Metric {
  std::string name;  // the Prometheus name; a counter's ends in _total
  std::string help;
  MetricType type = MetricType::kGauge;
  MetricGroup group = MetricGroup::kAlways;
  std::vector<std::pair<std::string, std::string>> labels;
  double value = 0;
  bool bytes = false;  // a memory size: in MB in the snapshot when asked
};

// What the reader knows, in one place.
struct MetricsInput {
  std::string version;
  std::string engine_version;
  const RunCounters* counters = nullptr;
  const pman_stats* probe = nullptr;  // null: not read
  std::vector<kestrel_cpu_counters> per_cpu;
  uint64_t ring_unread_bytes = 0;  // in the fullest ring
  uint64_t settings_generation = 0;
  std::vector<outputs::AlertOutputs::ChannelStats> channels;
  uint64_t rate_limited = 0;
  uint64_t rules_loaded = 0;
  uint64_t rules_enabled = 0;
  uint64_t rules_skipped = 0;
  uint64_t syscalls = 0;
  uint64_t reloads = 0;
  uint64_t reloads_failed = 0;
  uint64_t threads = 0;
  bool have_containers = false;
  uint64_t containers_cached = 0;
  uint64_t containers_fetched = 0;
  uint64_t containers_unknown = 0;
  uint64_t containers_failed = 0;
  uint64_t containers_evicted = 0;
  uint64_t drop_checks_alerting = 0;  // syscall_event_drops: drops over the threshold
  uint64_t drop_actions = 0;          // of those, acted on (the token bucket allowed)
};

std::vector<Metric> CollectMetrics(const MetricsInput& in);

// The text exposition format (version 0.0.4): # HELP and # TYPE once per
// name, label values escaped.
std::string PrometheusText(const std::vector<Metric>& metrics, const MetricGroups& groups);

// The snapshot as alert fields: `falco.`/`scap.`/`kestrel.` and the name
// (falcosecurity_ and _total dropped), label values appended with dots;
// memory in MB (`_mb`) when `convert_memory_to_mb`; zeros left out
// unless `include_empty_values`.
engine::alerts::OutputFields MetricsFields(const std::vector<Metric>& metrics,
                                           const MetricGroups& groups, bool convert_memory_to_mb,
                                           bool include_empty_values);

inline constexpr char kMetricsRule[] = "Falco internal: metrics snapshot";
// The internal alert Falco's metrics.output_rule raises: priority
// Informational, source "internal".
engine::alerts::Alert MetricsAlert(uint64_t wall_ns, engine::alerts::OutputFields fields);

// /proc/self/status's VmRSS and VmSize in bytes (0 when unreadable).
uint64_t ProcessRssBytes();
uint64_t ProcessVszBytes();

}  // namespace kestrel::agent::observe

#endif  // KESTREL_AGENT_OBSERVE_METRICS_H_
