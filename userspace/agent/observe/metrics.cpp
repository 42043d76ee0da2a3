#include "agent/observe/metrics.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/strip.h"
#include "engine/rules/priority.h"
#include "shared/counters.h"

namespace kestrel::agent::observe {
namespace {

constexpr char kFalco[] = "falcosecurity_falco_";
constexpr char kScap[] = "falcosecurity_scap_";

std::string Number(double v) {
  if (v >= 0 && v < 9007199254740992.0 && v == std::floor(v)) {
    return absl::StrCat(static_cast<uint64_t>(v));
  }
  return absl::StrFormat("%.6g", v);
}

void EscapeLabel(std::string& out, absl::string_view v) {
  for (char c : v) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '"') {
      out += "\\\"";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out.push_back(c);
    }
  }
}

// A builder that keeps the calls short.
class Figures {
 public:
  explicit Figures(std::vector<Metric>& out) : out_(out) {}
  Metric& Add(std::string name, MetricType type, MetricGroup group, double value,
              std::string help) {
    Metric m;
    m.name = std::move(name);
    m.type = type;
    m.group = group;
    m.value = value;
    m.help = std::move(help);
    out_.push_back(std::move(m));
    return out_.back();
  }
  Metric& Counter(std::string name, MetricGroup group, double value, std::string help) {
    return Add(std::move(name), MetricType::kCounter, group, value, std::move(help));
  }
  Metric& Gauge(std::string name, MetricGroup group, double value, std::string help) {
    return Add(std::move(name), MetricType::kGauge, group, value, std::move(help));
  }

 private:
  std::vector<Metric>& out_;
};

uint64_t StatusKb(absl::string_view key) {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line)) {
    absl::string_view rest = line;
    if (!absl::ConsumePrefix(&rest, key) || !absl::ConsumePrefix(&rest, ":")) continue;
    rest = absl::StripAsciiWhitespace(rest);
    absl::ConsumeSuffix(&rest, " kB");
    uint64_t kb = 0;
    return absl::SimpleAtoi(rest, &kb) ? kb : 0;
  }
  return 0;
}

void DropSuffix(std::string& s, absl::string_view suffix) {
  if (absl::EndsWith(s, suffix)) s.resize(s.size() - suffix.size());
}

}  // namespace

bool MetricGroups::Has(MetricGroup g) const {
  switch (g) {
    case MetricGroup::kAlways:
      return true;
    case MetricGroup::kRules:
      return rules;
    case MetricGroup::kResources:
      return resources;
    case MetricGroup::kState:
      return state;
    case MetricGroup::kKernel:
      return kernel;
    case MetricGroup::kKernelPerCpu:
      return kernel_per_cpu;
    case MetricGroup::kLibbpf:
      return libbpf;
  }
  return false;
}

uint64_t ProcessRssBytes() { return StatusKb("VmRSS") * 1024; }
uint64_t ProcessVszBytes() { return StatusKb("VmSize") * 1024; }

std::vector<Metric> CollectMetrics(const MetricsInput& in) {
  std::vector<Metric> out;
  Figures f(out);
  using G = MetricGroup;
  f.Gauge("kestrel_version_info", G::kAlways, 1, "Kestrel's version and its rules engine's")
      .labels = {{"version", in.version}, {"engine_version", in.engine_version}};

  uint64_t queue_drops = 0;
  for (const auto& c : in.channels) queue_drops += c.dropped;
  f.Counter(absl::StrCat(kFalco, "outputs_queue_num_drops_total"), G::kAlways,
            static_cast<double>(queue_drops), "Alerts the output channels' queues dropped");

  // Rules.
  if (in.counters != nullptr) {
    for (const auto& [name, r] : in.counters->alerts_by_rule) {
      f.Counter(absl::StrCat(kFalco, "rules_matches_total"), G::kRules,
                static_cast<double>(r.count), "Alerts raised, by rule")
          .labels = {{"rule_name", name},
                     {"priority", absl::StrCat(static_cast<int>(r.priority))},
                     {"source", r.source}};
    }
    for (size_t p = 0; p < in.counters->alerts.size(); ++p) {
      f.Counter("kestrel_alerts_total", G::kRules, static_cast<double>(in.counters->alerts[p]),
                "Alerts raised, by priority")
          .labels = {{"priority", std::string(engine::rules::PriorityName(
                                      static_cast<engine::rules::Priority>(p)))}};
    }
  }
  f.Gauge("kestrel_rules_loaded", G::kRules, static_cast<double>(in.rules_loaded),
          "Rules loaded, enabled or not");
  f.Gauge("kestrel_rules_enabled", G::kRules, static_cast<double>(in.rules_enabled),
          "Rules loaded and enabled");
  f.Gauge("kestrel_rules_skipped", G::kRules, static_cast<double>(in.rules_skipped),
          "Rules left out with a warning");
  f.Counter("kestrel_rules_reloads_total", G::kRules, static_cast<double>(in.reloads),
            "Rules reloads applied");
  f.Counter("kestrel_rules_reloads_failed_total", G::kRules, static_cast<double>(in.reloads_failed),
            "Rules reloads that failed");

  // The process.
  f.Gauge(absl::StrCat(kFalco, "memory_rss_bytes"), G::kResources,
          static_cast<double>(ProcessRssBytes()), "Resident set size of the process")
      .bytes = true;
  f.Gauge(absl::StrCat(kFalco, "memory_vsz_bytes"), G::kResources,
          static_cast<double>(ProcessVszBytes()), "Virtual memory size of the process")
      .bytes = true;

  // State.
  f.Gauge(absl::StrCat(kScap, "n_threads"), G::kState, static_cast<double>(in.threads),
          "Threads in the thread table");
  f.Gauge("kestrel_syscalls", G::kState, static_cast<double>(in.syscalls),
          "Syscalls in the probe's set");
  f.Gauge("kestrel_settings_generation", G::kState, static_cast<double>(in.settings_generation),
          "The probe settings' generation (every change counts)");
  if (in.have_containers) {
    f.Gauge(absl::StrCat(kScap, "n_containers"), G::kState,
            static_cast<double>(in.containers_cached), "Containers whose metadata is cached");
    const std::pair<const char*, uint64_t> lookups[] = {{"fetched", in.containers_fetched},
                                                        {"unknown", in.containers_unknown},
                                                        {"failed", in.containers_failed},
                                                        {"gone", in.containers_evicted}};
    for (const auto& [result, n] : lookups) {
      f.Counter("kestrel_container_lookups_total", G::kState, static_cast<double>(n),
                "Container runtime lookups, by result")
          .labels = {{"result", result}};
    }
  }

  // The probe and the reader.
  if (in.probe != nullptr) {
    const kestrel_cpu_counters& t = in.probe->total;
    f.Counter(absl::StrCat(kScap, "n_evts_total"), G::kKernel,
              static_cast<double>(t.records_written), "Records the probe wrote into the rings");
    f.Counter(absl::StrCat(kScap, "n_drops_total"), G::kKernel,
              static_cast<double>(kestrel_counters_dropped(&t)),
              "Records the probe dropped, every cause");
    f.Counter(absl::StrCat(kScap, "n_drops_buffer_total"), G::kKernel,
              static_cast<double>(t.drops_ring_full), "Records dropped because a ring was full");
    const std::pair<const char*, uint64_t> causes[] = {{"ring_full", t.drops_ring_full},
                                                       {"too_large", t.drops_too_large},
                                                       {"no_ring", t.drops_no_ring},
                                                       {"settings_busy", t.drops_settings_busy},
                                                       {"sampling", t.drops_sampling}};
    for (const auto& [cause, n] : causes) {
      f.Counter("kestrel_probe_drops_total", G::kKernel, static_cast<double>(n),
                "Records the probe dropped, by cause")
          .labels = {{"cause", cause}};
    }
    for (size_t cpu = 0; cpu < in.per_cpu.size(); ++cpu) {
      f.Counter(absl::StrCat(kScap, "n_evts_cpu_total"), G::kKernelPerCpu,
                static_cast<double>(in.per_cpu[cpu].records_written),
                "Records the probe wrote, by CPU")
          .labels = {{"cpu", absl::StrCat(cpu)}};
    }
    for (size_t cpu = 0; cpu < in.per_cpu.size(); ++cpu) {
      f.Counter(absl::StrCat(kScap, "n_drops_cpu_total"), G::kKernelPerCpu,
                static_cast<double>(kestrel_counters_dropped(&in.per_cpu[cpu])),
                "Records the probe dropped, by CPU")
          .labels = {{"cpu", absl::StrCat(cpu)}};
    }
    f.Gauge("kestrel_rings", G::kLibbpf, in.probe->n_rings, "Rings the probe writes into");
    f.Gauge("kestrel_ring_size_bytes", G::kLibbpf, static_cast<double>(in.probe->ring_bytes),
            "The data area of each ring")
        .bytes = true;
    f.Gauge("kestrel_rings_locked_bytes", G::kLibbpf, static_cast<double>(in.probe->locked_bytes),
            "Kernel memory of all rings")
        .bytes = true;
    f.Gauge("kestrel_ring_fill_ratio", G::kLibbpf,
            in.probe->ring_bytes == 0 ? 0
                                      : static_cast<double>(in.ring_unread_bytes) /
                                            static_cast<double>(in.probe->ring_bytes),
            "Unread share of the fullest ring");
  }
  if (in.counters != nullptr) {
    const RunCounters& c = *in.counters;
    f.Counter("kestrel_records_read_total", G::kKernel, static_cast<double>(c.records),
              "Records the reader took, drop markers included");
    f.Counter("kestrel_events_total", G::kKernel, static_cast<double>(c.events),
              "Syscall events judged by the rules");
    f.Counter("kestrel_records_lost_total", G::kKernel, static_cast<double>(c.lost),
              "Records lost, as the probe's drop markers say");
    f.Counter("kestrel_records_undecodable_total", G::kKernel, static_cast<double>(c.undecodable),
              "Records that did not decode");
  }
  f.Counter("kestrel_syscall_event_drops_total", G::kKernel,
            static_cast<double>(in.drop_checks_alerting),
            "Stats intervals whose drops were over syscall_event_drops.threshold");
  f.Counter("kestrel_syscall_event_drop_actions_total", G::kKernel,
            static_cast<double>(in.drop_actions), "Of those, acted on");

  // The alert channels.
  for (const auto& c : in.channels) {
    f.Counter("kestrel_output_sent_total", G::kAlways, static_cast<double>(c.sent),
              "Alerts delivered, by channel")
        .labels = {{"channel", c.name}};
  }
  for (const auto& c : in.channels) {
    f.Counter("kestrel_output_failed_total", G::kAlways, static_cast<double>(c.failed),
              "Alerts a channel tried and could not deliver")
        .labels = {{"channel", c.name}};
  }
  for (const auto& c : in.channels) {
    f.Counter("kestrel_output_dropped_total", G::kAlways, static_cast<double>(c.dropped),
              "Alerts never tried: the queue was full or closed")
        .labels = {{"channel", c.name}};
  }
  // The causes, as the stats line names them: a broker's timeouts and a
  // full disk call for different fixes.
  for (const auto& c : in.channels) {
    for (const auto& cause : c.failed_by_cause) {
      f.Counter("kestrel_output_failures_total", G::kAlways, static_cast<double>(cause.count),
                "Alerts a channel tried and could not deliver, by cause")
          .labels = {{"channel", c.name}, {"cause", cause.cause}};
    }
  }
  for (const auto& c : in.channels) {
    for (const auto& cause : c.dropped_by_cause) {
      f.Counter("kestrel_output_drops_total", G::kAlways, static_cast<double>(cause.count),
                "Alerts never tried, by cause")
          .labels = {{"channel", c.name}, {"cause", cause.cause}};
    }
  }
  // A channel that delivers later (Kafka) lags: what it took and has no
  // report on, and what its client still holds undelivered.
  for (const auto& c : in.channels) {
    if (!c.delivers_later) continue;
    f.Gauge("kestrel_output_in_flight", G::kAlways, static_cast<double>(c.in_flight),
            "Alerts a channel that delivers later took and has no delivery report on yet")
        .labels = {{"channel", c.name}};
  }
  for (const auto& c : in.channels) {
    if (!c.delivers_later) continue;
    f.Gauge("kestrel_output_waiting", G::kAlways, static_cast<double>(c.waiting),
            "Messages the channel's client holds undelivered (Kafka: rd_kafka_outq_len)")
        .labels = {{"channel", c.name}};
  }
  f.Counter("kestrel_output_rate_limited_total", G::kAlways, static_cast<double>(in.rate_limited),
            "Alerts outputs.rate kept from every channel");
  return out;
}

std::string PrometheusText(const std::vector<Metric>& metrics, const MetricGroups& groups) {
  // Every sample of a name together, under one # HELP and # TYPE, names in
  // the order first seen.
  std::vector<std::string> order;
  std::map<std::string, std::vector<const Metric*>, std::less<>> by_name;
  for (const Metric& m : metrics) {
    if (!groups.Has(m.group)) continue;
    auto [it, fresh] = by_name.try_emplace(m.name);
    if (fresh) order.push_back(m.name);
    it->second.push_back(&m);
  }
  std::string out;
  for (const std::string& name : order) {
    const std::vector<const Metric*>& samples = by_name.find(name)->second;
    // The exposition format names a counter's family without _total.
    absl::StrAppend(&out, "# HELP ", name, " ", samples.front()->help, "\n# TYPE ", name, " ",
                    samples.front()->type == MetricType::kCounter ? "counter" : "gauge", "\n");
    for (const Metric* m : samples) {
      out += name;
      if (!m->labels.empty()) {
        out.push_back('{');
        for (size_t i = 0; i < m->labels.size(); ++i) {
          absl::StrAppend(&out, i ? "," : "", m->labels[i].first, "=\"");
          EscapeLabel(out, m->labels[i].second);
          out.push_back('"');
        }
        out.push_back('}');
      }
      absl::StrAppend(&out, " ", Number(m->value), "\n");
    }
  }
  return out;
}

engine::alerts::OutputFields MetricsFields(const std::vector<Metric>& metrics,
                                           const MetricGroups& groups, bool convert_memory_to_mb,
                                           bool include_empty_values) {
  engine::alerts::OutputFields fields;
  for (const Metric& m : metrics) {
    if (!groups.Has(m.group)) continue;
    if (m.value == 0 && !include_empty_values) continue;
    absl::string_view name = m.name;
    std::string key;
    if (absl::ConsumePrefix(&name, "falcosecurity_")) {
      // falco_x / scap_x -> falco.x / scap.x
      const size_t cut = name.find('_');
      key = absl::StrCat(name.substr(0, cut), ".", name.substr(cut + 1));
    } else {
      absl::ConsumePrefix(&name, "kestrel_");
      key = absl::StrCat("kestrel.", name);
    }
    DropSuffix(key, "_total");
    double value = m.value;
    if (m.bytes && convert_memory_to_mb) {
      DropSuffix(key, "_bytes");
      key += "_mb";
      value /= 1024.0 * 1024.0;
    }
    if (m.name == "kestrel_version_info") {
      fields.push_back({"kestrel.version", m.labels[0].second});
      fields.push_back({"kestrel.engine_version", m.labels[1].second});
      continue;
    }
    for (const auto& [label, v] : m.labels) absl::StrAppend(&key, ".", v);
    const std::string text =
        m.bytes && convert_memory_to_mb ? absl::StrFormat("%.2f", value) : Number(value);
    fields.push_back({std::move(key), text,
                      text.find_first_not_of("0123456789") == std::string::npos
                          ? engine::alerts::FieldJsonKind::kNumber
                          : engine::alerts::FieldJsonKind::kString});
  }
  return fields;
}

engine::alerts::Alert MetricsAlert(uint64_t wall_ns, engine::alerts::OutputFields fields) {
  engine::alerts::Alert alert;
  alert.time_ns = wall_ns;
  alert.rule = kMetricsRule;
  alert.priority = engine::rules::Priority::kInformational;
  alert.source = "internal";
  alert.hostname = engine::alerts::LocalHostname();
  alert.output = "Falco metrics snapshot";
  alert.output_fields = std::move(fields);
  return alert;
}

}  // namespace kestrel::agent::observe
