#include "agent/config/run_config.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <optional>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "agent/config/json_writer.h"
#include "agent/outputs/channels.h"
#include "agent/quote.h"
#include "engine/rules/input_file.h"
#include "yaml-cpp/yaml.h"

namespace kestrel::agent {
namespace {

using Setter = std::function<absl::Status(const YAML::Node&, RunConfig&)>;

using Getter = void (*)(const RunConfig&, JsonWriter&);

struct Key {
  const char* name;
  Setter set;
  // A list key's list, which `-o key[]=value` appends to; null otherwise.
  std::vector<std::string>* (*list)(RunConfig&) = nullptr;
  // Writes the key's value as JSON (--support's config as loaded).
  Getter get = nullptr;
};

// "a list", "a mapping", "empty": what a node is, for a message.
const char* KindOf(const YAML::Node& node) {
  if (node.IsSequence()) return "a list";
  if (node.IsMap()) return "a mapping";
  if (node.IsNull()) return "empty";
  return "a single value";
}

absl::Status Scalar(const YAML::Node& node, std::string& out) {
  if (!node.IsScalar()) {
    return absl::InvalidArgumentError(absl::StrCat("needs a single value, not ", KindOf(node)));
  }
  out = node.Scalar();
  return absl::OkStatus();
}

absl::Status ParseBool(const YAML::Node& node, bool& out) {
  std::string text;
  if (absl::Status s = Scalar(node, text); !s.ok()) return s;
  const std::string lower = absl::AsciiStrToLower(text);
  if (lower == "true" || lower == "yes" || lower == "on") {
    out = true;
  } else if (lower == "false" || lower == "no" || lower == "off") {
    out = false;
  } else {
    return absl::InvalidArgumentError(
        absl::StrCat(Quote(text), " is not a boolean (true or false)"));
  }
  return absl::OkStatus();
}

absl::Status ParseDouble(const YAML::Node& node, double& out) {
  std::string text;
  if (absl::Status s = Scalar(node, text); !s.ok()) return s;
  // SimpleAtod takes "nan" and "inf": neither is a rate or a time.
  if (!absl::SimpleAtod(text, &out) || !std::isfinite(out) || out < 0) {
    return absl::InvalidArgumentError(absl::StrCat(Quote(text), " is not a finite number >= 0"));
  }
  return absl::OkStatus();
}

absl::Status ParseBounded(const YAML::Node& node, uint64_t lowest, uint64_t highest,
                          uint64_t& out) {
  std::string text;
  if (absl::Status s = Scalar(node, text); !s.ok()) return s;
  uint64_t value = 0;
  if (!absl::SimpleAtoi(text, &value) || value < lowest || value > highest) {
    return absl::InvalidArgumentError(
        absl::StrCat(Quote(text), " is not a whole number from ", lowest, " to ", highest));
  }
  out = value;
  return absl::OkStatus();
}

// A share of a ring: above 0, at most 1.
absl::Status ParseFraction(const YAML::Node& node, double& out) {
  double value = 0;
  if (absl::Status s = ParseDouble(node, value); !s.ok() || value <= 0 || value > 1) {
    return absl::InvalidArgumentError(absl::StrCat(Quote(node.IsScalar() ? node.Scalar() : ""),
                                                   " is not a fraction above 0, at most 1"));
  }
  out = value;
  return absl::OkStatus();
}

absl::Status ParsePriorityName(const YAML::Node& node, engine::rules::Priority& out) {
  std::string text;
  if (absl::Status s = Scalar(node, text); !s.ok()) return s;
  std::optional<engine::rules::Priority> p = engine::rules::ParsePriority(text);
  if (!p) {
    return absl::InvalidArgumentError(
        absl::StrCat(Quote(text),
                     " is not a priority (emergency, alert, critical, error, warning, notice, "
                     "informational, debug)"));
  }
  out = *p;
  return absl::OkStatus();
}

// A list of strings; a single scalar is a list of one, as Falco takes it.
absl::Status ParseStrings(const YAML::Node& node, std::vector<std::string>& out) {
  out.clear();
  if (node.IsNull()) return absl::OkStatus();
  if (node.IsScalar()) {
    out.push_back(node.Scalar());
    return absl::OkStatus();
  }
  if (!node.IsSequence()) return absl::InvalidArgumentError("needs a list of names");
  for (const YAML::Node& item : node) {
    if (!item.IsScalar()) return absl::InvalidArgumentError("needs a list of names");
    out.push_back(item.Scalar());
  }
  return absl::OkStatus();
}

// Falco's duration: one or more of a number and a unit (ms, s, m, h, d,
// w): "1h", "15m", "1m30s".
absl::Status ParseDuration(const YAML::Node& node, double& seconds) {
  std::string text;
  if (absl::Status s = Scalar(node, text); !s.ok()) return s;
  const auto bad = [&] {
    return absl::InvalidArgumentError(
        absl::StrCat(Quote(text), " is not a duration (1h, 15m, 30s, 500ms, 1m30s)"));
  };
  double total = 0;
  size_t at = 0;
  while (at < text.size()) {
    size_t digits = at;
    while (digits < text.size() && absl::ascii_isdigit(static_cast<unsigned char>(text[digits]))) {
      ++digits;
    }
    size_t unit_end = digits;
    while (unit_end < text.size() &&
           absl::ascii_isalpha(static_cast<unsigned char>(text[unit_end]))) {
      ++unit_end;
    }
    uint64_t n = 0;
    if (digits == at || !absl::SimpleAtoi(text.substr(at, digits - at), &n)) return bad();
    const std::string unit = text.substr(digits, unit_end - digits);
    const double scale = unit == "ms"  ? 0.001
                         : unit == "s" ? 1
                         : unit == "m" ? 60
                         : unit == "h" ? 3600
                         : unit == "d" ? 86400
                         : unit == "w" ? 604800
                                       : -1;
    if (scale < 0) return bad();
    total += static_cast<double>(n) * scale;
    at = unit_end;
  }
  if (text.empty() || total <= 0) return bad();
  seconds = total;
  return absl::OkStatus();
}

// Falco's log levels, syslog's numbering.
absl::Status ParseLogLevel(const YAML::Node& node, int& out) {
  std::string text;
  if (absl::Status s = Scalar(node, text); !s.ok()) return s;
  static constexpr std::string_view kLevels[] = {"emergency", "alert",  "critical", "error",
                                                 "warning",   "notice", "info",     "debug"};
  for (int i = 0; i < 8; ++i) {
    if (absl::AsciiStrToLower(text) == kLevels[i]) {
      out = i;
      return absl::OkStatus();
    }
  }
  return absl::InvalidArgumentError(
      absl::StrCat(Quote(text),
                   " is not a log level (emergency, alert, critical, error, "
                   "warning, notice, info, debug)"));
}

std::string_view LogLevelName(int level) {
  static constexpr std::string_view kNames[] = {"emergency", "alert",  "critical", "error",
                                                "warning",   "notice", "info",     "debug"};
  return kNames[level < 0 || level > 7 ? 6 : level];
}

// A Falco key set to what Kestrel cannot do: one line naming the value and
// what Kestrel does instead.
absl::Status Refuse(const YAML::Node& node, std::string_view why) {
  return absl::InvalidArgumentError(
      absl::StrCat(Quote(node.IsScalar() ? node.Scalar() : KindOf(node)),
                   " is not supported: ", std::string(why)));
}

// Falco's config loader's environment references: `${VAR}` is VAR's value
// (nothing when unset), `$${...}` is `${...}` as written.
std::string ExpandEnvironment(std::string value) {
  size_t at = value.find('$');
  while (at != std::string::npos) {
    const std::string_view rest = std::string_view(value).substr(at);
    if (rest.starts_with("${")) {
      const size_t end = rest.find('}');
      if (end == std::string_view::npos) break;
      const std::string name(rest.substr(2, end - 2));
      const char* env = std::getenv(name.c_str());
      const std::string with = env != nullptr ? env : "";
      value.replace(at, end + 1, with);
      at += with.size();
    } else if (rest.starts_with("$${")) {
      if (rest.find('}') == std::string_view::npos) break;
      value.erase(at, 1);
      at += 2;
    } else {
      ++at;
    }
    at = value.find('$', at);
  }
  return value;
}

absl::Status ParseAppendOutput(const YAML::Node& node, std::vector<AppendOutput>& out) {
  out.clear();
  if (node.IsNull()) return absl::OkStatus();
  if (!node.IsSequence()) return absl::InvalidArgumentError("needs a list of entries");
  for (const YAML::Node& item : node) {
    if (!item.IsMap()) return absl::InvalidArgumentError("each entry needs to be a mapping");
    AppendOutput entry;
    for (const auto& kv : item) {
      const std::string key = kv.first.Scalar();
      absl::Status s;
      if (key == "match") {
        if (!kv.second.IsMap()) return absl::InvalidArgumentError("match needs a mapping");
        for (const auto& m : kv.second) {
          const std::string what = m.first.Scalar();
          if (what == "rule") {
            s = Scalar(m.second, entry.rule);
          } else if (what == "source") {
            s = Scalar(m.second, entry.source);
          } else if (what == "tags") {
            s = ParseStrings(m.second, entry.tags);
          } else {
            s = absl::InvalidArgumentError(
                absl::StrCat("match: unknown key ", Quote(what), " (rule, source, tags)"));
          }
          if (!s.ok()) return s;
        }
      } else if (key == "extra_output") {
        s = Scalar(kv.second, entry.extra_output);
        entry.extra_output = ExpandEnvironment(std::move(entry.extra_output));
      } else if (key == "suggested_output") {
        s = ParseBool(kv.second, entry.suggested_output);
      } else if (key == "extra_fields") {
        if (!kv.second.IsSequence()) return absl::InvalidArgumentError("extra_fields needs a list");
        for (const YAML::Node& f : kv.second) {
          std::string name, format;
          if (f.IsScalar()) {
            name = f.Scalar();
          } else if (f.IsMap() && f.size() == 1 && f.begin()->second.IsScalar()) {
            name = f.begin()->first.Scalar();
            format = ExpandEnvironment(f.begin()->second.Scalar());
            // Falco leaves a key with an empty format out of the alerts.
            if (format.empty()) continue;
          } else {
            return absl::InvalidArgumentError(
                "each of extra_fields is a field name or one `name: format`");
          }
          for (const auto& [other, unused] : entry.extra_fields) {
            if (other == name) {
              return absl::InvalidArgumentError(
                  absl::StrCat("extra_fields: ", Quote(name), " is given twice"));
            }
          }
          entry.extra_fields.emplace_back(std::move(name), std::move(format));
        }
      } else {
        s = absl::InvalidArgumentError(absl::StrCat(
            "unknown key ", Quote(key), " (match, extra_output, extra_fields, suggested_output)"));
      }
      if (!s.ok()) return s;
    }
    out.push_back(std::move(entry));
  }
  return absl::OkStatus();
}

// Setters of Falco keys that only need a valid value: Kestrel already
// behaves as either value says (the key's comment says why).
absl::Status AcceptBool(const YAML::Node& n, RunConfig&) {
  bool ignored = false;
  return ParseBool(n, ignored);
}
absl::Status AcceptCount(const YAML::Node& n, RunConfig&) {
  uint64_t ignored = 0;
  return ParseBounded(n, 0, uint64_t{1} << 32, ignored);
}

// kafka_output.properties: a mapping of librdkafka property names to
// single values.
absl::Status ParseProperties(const YAML::Node& node,
                             std::vector<std::pair<std::string, std::string>>& out) {
  out.clear();
  if (node.IsNull()) return absl::OkStatus();
  if (!node.IsMap()) {
    return absl::InvalidArgumentError(
        absl::StrCat("needs a mapping of librdkafka properties, not ", KindOf(node)));
  }
  for (const auto& kv : node) {
    const std::string name = kv.first.Scalar();
    std::string value;
    if (absl::Status s = Scalar(kv.second, value); !s.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(Quote(name), ": ", s.message()));
    }
    out.emplace_back(name, std::move(value));
  }
  return absl::OkStatus();
}

// Whether a librdkafka property's value is a secret --support must not show.
bool IsSecretProperty(std::string_view name) {
  for (std::string_view secret : {"password", "secret", "key.pem", "oauthbearer.config"}) {
    if (name.find(secret) != std::string_view::npos) return true;
  }
  return false;
}

// Setters for members in nested structs, written out: a lambda per key
// reads more plainly than member-pointer plumbing.
#define KESTREL_BOOL_KEY(key, expr)                                                     \
  Key {                                                                                 \
    key, [](const YAML::Node& n, RunConfig& c) { return ParseBool(n, expr); }, nullptr, \
        [](const RunConfig& c, JsonWriter& j) { j.Bool(expr); }                         \
  }
#define KESTREL_STRING_KEY(key, expr)                                                \
  Key {                                                                              \
    key, [](const YAML::Node& n, RunConfig& c) { return Scalar(n, expr); }, nullptr, \
        [](const RunConfig& c, JsonWriter& j) { j.String(expr); }                    \
  }
#define KESTREL_LIST_KEY(key, expr)                                               \
  Key {                                                                           \
    key, [](const YAML::Node& n, RunConfig& c) { return ParseStrings(n, expr); }, \
        [](RunConfig& c) -> std::vector<std::string>* { return &(expr); },        \
        [](const RunConfig& c, JsonWriter& j) { j.Strings(expr); }                \
  }
#define KESTREL_DOUBLE_KEY(key, expr)                                                     \
  Key {                                                                                   \
    key, [](const YAML::Node& n, RunConfig& c) { return ParseDouble(n, expr); }, nullptr, \
        [](const RunConfig& c, JsonWriter& j) { j.Double(expr); }                         \
  }

const std::vector<Key>& Keys() {
  static const std::vector<Key> keys = {
      KESTREL_LIST_KEY("rules_files", c.rules_files),
      KESTREL_LIST_KEY("config_files", c.config_files),
      KESTREL_BOOL_KEY("watch_config_files", c.watch_config_files),
      {"engine.kind",
       [](const YAML::Node& n, RunConfig& c) -> absl::Status {
         std::string text;
         if (absl::Status s = Scalar(n, text); !s.ok()) return s;
         if (text != "modern_ebpf" && text != "replay") {
           return Refuse(n, "Kestrel's engines are its CO-RE BPF probe (modern_ebpf) and replay");
         }
         c.replay_engine = text == "replay";
         return absl::OkStatus();
       },
       nullptr,
       [](const RunConfig& c, JsonWriter& j) {
         j.String(c.replay_engine ? "replay" : "modern_ebpf");
       }},
      KESTREL_STRING_KEY("engine.replay.capture_file", c.replay_capture_file),
      {"engine.modern_ebpf.buf_size_preset",
       [](const YAML::Node& n, RunConfig& c) -> absl::Status {
         uint64_t preset = 0;
         if (absl::Status s = ParseBounded(n, 1, 10, preset); !s.ok()) return s;
         c.buffer_bytes = uint64_t{1} << (20 + preset - 1);  // 1 MiB .. 512 MiB
         return absl::OkStatus();
       },
       nullptr,
       [](const RunConfig& c, JsonWriter& j) {
         j.Number(c.buffer_bytes ? std::countr_zero(*c.buffer_bytes) - 19 : 4);
       }},
      {"engine.modern_ebpf.cpus_for_each_buffer",
       [](const YAML::Node& n, RunConfig& c) -> absl::Status {
         uint64_t cpus = 0;
         if (absl::Status s = ParseBounded(n, 0, 1u << 16, cpus); !s.ok()) return s;
         c.cpus_per_buffer = static_cast<uint32_t>(cpus);
         return absl::OkStatus();
       },
       nullptr, [](const RunConfig& c, JsonWriter& j) { j.Number(c.cpus_per_buffer.value_or(2)); }},
      // Kestrel reads /proc, never BPF iterators: either value means that.
      {"engine.modern_ebpf.disable_iterators", AcceptBool},
      {"load_plugins",
       [](const YAML::Node& n, RunConfig&) -> absl::Status {
         std::vector<std::string> names;
         if (absl::Status s = ParseStrings(n, names); !s.ok()) return s;
         for (const std::string& name : names) {
           if (name != "container") {
             return absl::InvalidArgumentError(
                 absl::StrCat(Quote(name),
                              " is not supported: Kestrel loads no plugins; its "
                              "container fields are built in"));
           }
         }
         return absl::OkStatus();
       }},
      {"plugins",
       [](const YAML::Node& n, RunConfig&) -> absl::Status {
         if (!n.IsNull() && !n.IsSequence()) return absl::InvalidArgumentError("needs a list");
         return absl::OkStatus();  // read only for load_plugins' names
       }},
      {"plugins_hostinfo", AcceptBool},
      KESTREL_BOOL_KEY("time_format_iso_8601", c.time_format_iso_8601),
      {"buffer_format_base64",
       [](const YAML::Node& n, RunConfig&) -> absl::Status {
         bool base64 = false;
         if (absl::Status s = ParseBool(n, base64); !s.ok()) return s;
         if (base64) return Refuse(n, "buffers print as escaped text only");
         return absl::OkStatus();
       }},
      KESTREL_BOOL_KEY("json_include_output_fields_property",
                       c.json_include_output_fields_property),
      KESTREL_BOOL_KEY("json_include_message_property", c.json_include_message_property),
      {"append_output",
       [](const YAML::Node& n, RunConfig& c) { return ParseAppendOutput(n, c.append_output); }},
      KESTREL_BOOL_KEY("webserver.enabled", c.webserver.enabled),
      {"webserver.threadiness",
       [](const YAML::Node& n, RunConfig& c) -> absl::Status {
         uint64_t threads = 0;
         if (absl::Status s = ParseBounded(n, 0, 64, threads); !s.ok()) return s;
         c.webserver.threadiness = static_cast<uint32_t>(threads);
         return absl::OkStatus();
       },
       nullptr, [](const RunConfig& c, JsonWriter& j) { j.Number(c.webserver.threadiness); }},
      {"webserver.listen_port",
       [](const YAML::Node& n, RunConfig& c) -> absl::Status {
         uint64_t port = 0;
         if (absl::Status s = ParseBounded(n, 1, 65535, port); !s.ok()) return s;
         c.webserver.listen_port = static_cast<uint32_t>(port);
         return absl::OkStatus();
       },
       nullptr, [](const RunConfig& c, JsonWriter& j) { j.Number(c.webserver.listen_port); }},
      KESTREL_STRING_KEY("webserver.listen_address", c.webserver.listen_address),
      KESTREL_STRING_KEY("webserver.k8s_healthz_endpoint", c.webserver.healthz_endpoint),
      KESTREL_BOOL_KEY("webserver.prometheus_metrics_enabled",
                       c.webserver.prometheus_metrics_enabled),
      KESTREL_BOOL_KEY("webserver.ssl_enabled", c.webserver.ssl_enabled),
      KESTREL_STRING_KEY("webserver.ssl_certificate", c.webserver.ssl_certificate),
      KESTREL_BOOL_KEY("log_stderr", c.log.to_stderr),
      KESTREL_BOOL_KEY("log_syslog", c.log.to_syslog),
      {"log_level", [](const YAML::Node& n, RunConfig& c) { return ParseLogLevel(n, c.log.level); },
       nullptr, [](const RunConfig& c, JsonWriter& j) { j.String(LogLevelName(c.log.level)); }},
      // libbpf's own warnings always reach the log; its debug chatter never.
      {"libs_logger.enabled", AcceptBool},
      {"libs_logger.severity",
       [](const YAML::Node& n, RunConfig&) {
         int ignored = 0;
         return ParseLogLevel(n, ignored);
       }},
      {"syscall_event_timeouts.max_consecutives",
       [](const YAML::Node& n, RunConfig& c) {
         return ParseBounded(n, 1, uint64_t{1} << 32, c.syscall_event_timeouts_max_consecutives);
       },
       nullptr,
       [](const RunConfig& c, JsonWriter& j) {
         j.Number(c.syscall_event_timeouts_max_consecutives);
       }},
      {"syscall_event_drops.threshold",
       [](const YAML::Node& n, RunConfig& c) {
         return ParseFraction(n, c.syscall_event_drops.threshold);
       },
       nullptr,
       [](const RunConfig& c, JsonWriter& j) { j.Double(c.syscall_event_drops.threshold); }},
      {"syscall_event_drops.actions",
       [](const YAML::Node& n, RunConfig& c) -> absl::Status {
         std::vector<std::string> actions;
         if (absl::Status s = ParseStrings(n, actions); !s.ok()) return s;
         for (const std::string& a : actions) {
           if (a != "ignore" && a != "log" && a != "alert" && a != "exit") {
             return absl::InvalidArgumentError(
                 absl::StrCat(Quote(a), " is not an action (ignore, log, alert, exit)"));
           }
         }
         c.syscall_event_drops.actions = std::move(actions);
         return absl::OkStatus();
       },
       nullptr,
       [](const RunConfig& c, JsonWriter& j) { j.Strings(c.syscall_event_drops.actions); }},
      KESTREL_DOUBLE_KEY("syscall_event_drops.rate", c.syscall_event_drops.rate),
      KESTREL_DOUBLE_KEY("syscall_event_drops.max_burst", c.syscall_event_drops.max_burst),
      KESTREL_BOOL_KEY("syscall_event_drops.simulate_drops", c.syscall_event_drops.simulate_drops),
      KESTREL_BOOL_KEY("metrics.enabled", c.metrics.enabled),
      {"metrics.interval",
       [](const YAML::Node& n, RunConfig& c) { return ParseDuration(n, c.metrics.interval_s); },
       nullptr,
       [](const RunConfig& c, JsonWriter& j) {
         j.String(absl::StrCat(c.metrics.interval_s, "s"));
       }},
      KESTREL_BOOL_KEY("metrics.output_rule", c.metrics.output_rule),
      KESTREL_STRING_KEY("metrics.output_file", c.metrics.output_file),
      KESTREL_BOOL_KEY("metrics.rules_counters_enabled", c.metrics.rules_counters),
      KESTREL_BOOL_KEY("metrics.resource_utilization_enabled", c.metrics.resource_utilization),
      KESTREL_BOOL_KEY("metrics.state_counters_enabled", c.metrics.state_counters),
      KESTREL_BOOL_KEY("metrics.kernel_event_counters_enabled", c.metrics.kernel_event_counters),
      KESTREL_BOOL_KEY("metrics.kernel_event_counters_per_cpu_enabled",
                       c.metrics.kernel_event_counters_per_cpu),
      KESTREL_BOOL_KEY("metrics.libbpf_stats_enabled", c.metrics.libbpf_stats),
      // Kestrel loads no plugins, walks no BPF iterators and has no jemalloc.
      {"metrics.plugins_metrics_enabled", AcceptBool},
      {"metrics.kernel_iter_event_counters_enabled", AcceptBool},
      {"metrics.jemalloc_stats_enabled", AcceptBool},
      KESTREL_BOOL_KEY("metrics.convert_memory_to_mb", c.metrics.convert_memory_to_mb),
      KESTREL_BOOL_KEY("metrics.include_empty_values", c.metrics.include_empty_values),
      KESTREL_BOOL_KEY("base_syscalls.all", c.base_syscalls_all),
      {"falco_libs.snaplen",
       [](const YAML::Node& n, RunConfig& c) -> absl::Status {
         uint64_t snaplen = 0;
         if (absl::Status s = ParseBounded(n, 0, 65536, snaplen); !s.ok()) return s;
         c.snaplen = static_cast<uint32_t>(snaplen);
         return absl::OkStatus();
       },
       nullptr, [](const RunConfig& c, JsonWriter& j) { j.Number(c.snaplen.value_or(80)); }},
      // Kestrel forgets a thread at its exit record and evicts the oldest
      // exited ones when the table is full: there is nothing to purge on a
      // timer.
      {"falco_libs.thread_table_auto_purging_interval_s", AcceptCount},
      {"falco_libs.thread_table_auto_purging_thread_timeout_s", AcceptCount},
      KESTREL_BOOL_KEY("json_output", c.json_output),
      KESTREL_BOOL_KEY("json_include_output_property", c.json_include_output_property),
      KESTREL_BOOL_KEY("json_include_tags_property", c.json_include_tags_property),
      {"rule_matching",
       [](const YAML::Node& n, RunConfig& c) -> absl::Status {
         std::string text;
         if (absl::Status s = Scalar(n, text); !s.ok()) return s;
         if (text != "first" && text != "all") {
           return absl::InvalidArgumentError(absl::StrCat(Quote(text), " is not first or all"));
         }
         c.rule_matching_all = text == "all";
         return absl::OkStatus();
       },
       nullptr,
       [](const RunConfig& c, JsonWriter& j) { j.String(c.rule_matching_all ? "all" : "first"); }},
      {"priority",
       [](const YAML::Node& n, RunConfig& c) { return ParsePriorityName(n, c.priority); }, nullptr,
       [](const RunConfig& c, JsonWriter& j) {
         j.String(absl::AsciiStrToLower(std::string(engine::rules::PriorityName(c.priority))));
       }},
      KESTREL_BOOL_KEY("stdout_output.enabled", c.stdout_enabled),
      KESTREL_BOOL_KEY("file_output.enabled", c.file_output.enabled),
      KESTREL_STRING_KEY("file_output.filename", c.file_output.filename),
      KESTREL_BOOL_KEY("file_output.keep_alive", c.file_output.keep_alive),
      KESTREL_BOOL_KEY("syslog_output.enabled", c.syslog_enabled),
      KESTREL_BOOL_KEY("http_output.enabled", c.http_output.enabled),
      KESTREL_STRING_KEY("http_output.url", c.http_output.url),
      KESTREL_STRING_KEY("http_output.user_agent", c.http_output.user_agent),
      KESTREL_BOOL_KEY("http_output.insecure", c.http_output.insecure),
      KESTREL_STRING_KEY("http_output.ca_cert", c.http_output.ca_cert),
      KESTREL_STRING_KEY("http_output.ca_bundle", c.http_output.ca_bundle),
      KESTREL_STRING_KEY("http_output.ca_path", c.http_output.ca_path),
      KESTREL_BOOL_KEY("http_output.mtls", c.http_output.mtls),
      KESTREL_STRING_KEY("http_output.client_cert", c.http_output.client_cert),
      KESTREL_STRING_KEY("http_output.client_key", c.http_output.client_key),
      KESTREL_BOOL_KEY("http_output.echo", c.http_output.echo),
      KESTREL_BOOL_KEY("http_output.compress_uploads", c.http_output.compress_uploads),
      KESTREL_BOOL_KEY("http_output.keep_alive", c.http_output.keep_alive),
      {"http_output.max_consecutive_timeouts",
       [](const YAML::Node& n, RunConfig& c) {
         return ParseBounded(n, 0, 255, c.http_output.max_consecutive_timeouts);
       },
       nullptr,
       [](const RunConfig& c, JsonWriter& j) { j.Number(c.http_output.max_consecutive_timeouts); }},
      KESTREL_BOOL_KEY("program_output.enabled", c.program_output.enabled),
      KESTREL_STRING_KEY("program_output.program", c.program_output.program),
      KESTREL_BOOL_KEY("program_output.keep_alive", c.program_output.keep_alive),
      KESTREL_BOOL_KEY("kafka_output.enabled", c.kafka_output.enabled),
      KESTREL_LIST_KEY("kafka_output.brokers", c.kafka_output.brokers),
      KESTREL_STRING_KEY("kafka_output.topic", c.kafka_output.topic),
      {"kafka_output.properties",
       [](const YAML::Node& n, RunConfig& c) {
         return ParseProperties(n, c.kafka_output.properties);
       },
       nullptr,
       [](const RunConfig& c, JsonWriter& j) {
         j.Open('{');
         for (const auto& [name, value] : c.kafka_output.properties) {
           j.Key(name);
           j.String(IsSecretProperty(name) ? "(hidden)" : value);
         }
         j.Close('}');
       }},
      {"kafka_output.queue_capacity",
       [](const YAML::Node& n, RunConfig& c) {
         return ParseBounded(n, 1, 10000000, c.kafka_output.queue_capacity);
       },
       nullptr, [](const RunConfig& c, JsonWriter& j) { j.Number(c.kafka_output.queue_capacity); }},
      {"kafka_output.message_timeout_ms",
       [](const YAML::Node& n, RunConfig& c) {
         return ParseBounded(n, 1, 2147483647, c.kafka_output.message_timeout_ms);
       },
       nullptr,
       [](const RunConfig& c, JsonWriter& j) { j.Number(c.kafka_output.message_timeout_ms); }},
      KESTREL_LIST_KEY("base_syscalls.custom_set", c.base_syscalls.custom_set),
      KESTREL_BOOL_KEY("base_syscalls.repair", c.base_syscalls.repair),
      KESTREL_BOOL_KEY("buffered_outputs", c.buffered_outputs),
      KESTREL_DOUBLE_KEY("outputs.rate", c.outputs.rate),
      KESTREL_DOUBLE_KEY("outputs.max_burst", c.outputs.max_burst),
      {"outputs_queue.capacity",
       [](const YAML::Node& n, RunConfig& c) -> absl::Status {
         uint64_t capacity = 0;
         if (absl::Status s = ParseBounded(n, 0, 1u << 20, capacity); !s.ok()) return s;
         c.outputs_queue_capacity = capacity;
         return absl::OkStatus();
       },
       nullptr, [](const RunConfig& c, JsonWriter& j) { j.Number(c.outputs_queue_capacity); }},
      {"falco_libs.thread_table_size",
       [](const YAML::Node& n, RunConfig& c) {
         return ParseBounded(n, 64, 1u << 22, c.thread_table_size);
       },
       nullptr, [](const RunConfig& c, JsonWriter& j) { j.Number(c.thread_table_size); }},
      {"output_timeout",
       [](const YAML::Node& n, RunConfig& c) {
         return ParseBounded(n, 1, 3600 * 1000, c.output_timeout_ms);
       },
       nullptr, [](const RunConfig& c, JsonWriter& j) { j.Number(c.output_timeout_ms); }},
      KESTREL_BOOL_KEY("allow_outside_changes", c.allow_outside_changes),
      KESTREL_BOOL_KEY("engine.modern_ebpf.drop_failed_exit", c.drop_failed_exit),
      {"rules_file_max_bytes",
       [](const YAML::Node& n, RunConfig& c) {
         return ParseBounded(n, 1024, uint64_t{1} << 30, c.rules_file_max_bytes);
       },
       nullptr, [](const RunConfig& c, JsonWriter& j) { j.Number(c.rules_file_max_bytes); }},
      KESTREL_LIST_KEY("container_engines.docker.sockets", c.docker_sockets),
      KESTREL_LIST_KEY("container_engines.podman.sockets", c.podman_sockets),
      KESTREL_LIST_KEY("container_engines.cri.sockets", c.cri_sockets),
      KESTREL_BOOL_KEY("capture.enabled", c.capture.enabled),
      KESTREL_STRING_KEY("capture.path_prefix", c.capture.path_prefix),
      {"capture.mode",
       [](const YAML::Node& n, RunConfig& c) -> absl::Status {
         std::string text;
         if (absl::Status s = Scalar(n, text); !s.ok()) return s;
         if (text != "rules" && text != "all_rules") {
           return absl::InvalidArgumentError(
               absl::StrCat(Quote(text), " is not rules or all_rules"));
         }
         c.capture.all_rules = text == "all_rules";
         return absl::OkStatus();
       },
       nullptr,
       [](const RunConfig& c, JsonWriter& j) {
         j.String(c.capture.all_rules ? "all_rules" : "rules");
       }},
      {"capture.default_duration",
       [](const YAML::Node& n, RunConfig& c) {
         return ParseBounded(n, 1, 24ull * 3600 * 1000, c.capture.default_duration_ms);
       },
       nullptr, [](const RunConfig& c, JsonWriter& j) { j.Number(c.capture.default_duration_ms); }},
      {"capture.window_seconds",
       [](const YAML::Node& n, RunConfig& c) -> absl::Status {
         double seconds = 0;
         if (absl::Status s = ParseDouble(n, seconds); !s.ok()) return s;
         if (seconds <= 0 || seconds > 600) {
           return absl::InvalidArgumentError(
               absl::StrCat(Quote(n.Scalar()), " is not a number of seconds above 0, at most 600"));
         }
         c.capture.window_seconds = seconds;
         return absl::OkStatus();
       },
       nullptr, [](const RunConfig& c, JsonWriter& j) { j.Double(c.capture.window_seconds); }},
      {"capture.window_bytes",
       [](const YAML::Node& n, RunConfig& c) {
         return ParseBounded(n, 1ull << 20, 4ull << 30, c.capture.window_bytes);
       },
       nullptr, [](const RunConfig& c, JsonWriter& j) { j.Number(c.capture.window_bytes); }},
      {"capture.max_file_size_mb",
       [](const YAML::Node& n, RunConfig& c) {
         return ParseBounded(n, 0, 1ull << 20, c.capture.max_file_size_mb);
       },
       nullptr, [](const RunConfig& c, JsonWriter& j) { j.Number(c.capture.max_file_size_mb); }},
      KESTREL_BOOL_KEY("load_shedding.enabled", c.load_shedding.enabled),
      {"load_shedding.start_fill",
       [](const YAML::Node& n, RunConfig& c) {
         return ParseFraction(n, c.load_shedding.start_fill);
       },
       nullptr, [](const RunConfig& c, JsonWriter& j) { j.Double(c.load_shedding.start_fill); }},
      {"load_shedding.stop_fill",
       [](const YAML::Node& n, RunConfig& c) {
         return ParseFraction(n, c.load_shedding.stop_fill);
       },
       nullptr, [](const RunConfig& c, JsonWriter& j) { j.Double(c.load_shedding.stop_fill); }},
      KESTREL_DOUBLE_KEY("load_shedding.min_seconds", c.load_shedding.min_seconds),
      {"load_shedding.sampling_ratio",
       [](const YAML::Node& n, RunConfig& c) {
         uint64_t ratio = 0;
         if (absl::Status s = ParseBounded(n, 2, 1u << 20, ratio); !s.ok()) return s;
         c.load_shedding.sampling_ratio = static_cast<uint32_t>(ratio);
         return absl::OkStatus();
       },
       nullptr,
       [](const RunConfig& c, JsonWriter& j) { j.Number(c.load_shedding.sampling_ratio); }},
      {"load_shedding.keep_priority",
       [](const YAML::Node& n, RunConfig& c) {
         return ParsePriorityName(n, c.load_shedding.keep_priority);
       },
       nullptr,
       [](const RunConfig& c, JsonWriter& j) {
         j.String(absl::AsciiStrToLower(
             std::string(engine::rules::PriorityName(c.load_shedding.keep_priority))));
       }},
  };
  return keys;
}

#undef KESTREL_BOOL_KEY
#undef KESTREL_STRING_KEY
#undef KESTREL_DOUBLE_KEY
#undef KESTREL_LIST_KEY

const Key* FindKey(std::string_view name) {
  for (const Key& key : Keys()) {
    if (name == key.name) return &key;
  }
  return nullptr;
}

// Whether some key starts with `prefix.`: a mapping to descend into.
bool IsSection(std::string_view prefix) {
  for (const Key& key : Keys()) {
    std::string_view name = key.name;
    if (name.size() > prefix.size() && name.starts_with(prefix) && name[prefix.size()] == '.') {
      return true;
    }
  }
  return false;
}

// Sections Falco reads only for an engine.kind of that name, which Kestrel
// refuses: whatever they hold is never used, by Falco either.
bool IsOtherEngineSection(std::string_view name) {
  return name == "engine.kmod" || name == "engine.ebpf" || name == "engine.gvisor" ||
         name == "engine.nodriver";
}

std::string Where(const std::string& path, const YAML::Mark& mark) {
  return absl::StrCat(path, ":", mark.line + 1, ":", mark.column + 1);
}

absl::Status ApplyMapping(const std::string& path, const YAML::Node& map, const std::string& prefix,
                          RunConfig& config, std::vector<std::string>& warnings) {
  for (const auto& entry : map) {
    const std::string name =
        prefix.empty() ? entry.first.Scalar() : absl::StrCat(prefix, ".", entry.first.Scalar());
    if (const Key* key = FindKey(name)) {
      if (absl::Status s = key->set(entry.second, config); !s.ok()) {
        return absl::InvalidArgumentError(
            absl::StrCat(Where(path, entry.first.Mark()), ": ", name, ": ", s.message()));
      }
      continue;
    }
    if (IsOtherEngineSection(name)) continue;
    if (IsSection(name) && entry.second.IsMap()) {
      if (absl::Status s = ApplyMapping(path, entry.second, name, config, warnings); !s.ok()) {
        return s;
      }
      continue;
    }
    if (IsSection(name)) {
      // `file_output: true`: a known section given the wrong type.
      return absl::InvalidArgumentError(absl::StrCat(Where(path, entry.first.Mark()), ": ", name,
                                                     ": needs a mapping of keys (", name,
                                                     "...), not ", KindOf(entry.second)));
    }
    warnings.push_back(
        absl::StrCat(Where(path, entry.first.Mark()), ": unknown key ", Quote(name), " ignored"));
  }
  return absl::OkStatus();
}

}  // namespace

std::string RunConfigJson(const RunConfig& config) {
  JsonWriter j;
  j.Open('{');
  for (const Key& key : Keys()) {
    if (key.get == nullptr) continue;  // a Falco key Kestrel reads and keeps nothing of
    j.Key(key.name);
    key.get(config, j);
  }
  j.Close('}');
  return j.Take();
}

std::vector<std::string> RunConfigKeys() {
  std::vector<std::string> names;
  for (const Key& key : Keys()) names.push_back(key.name);
  return names;
}

namespace {

// The parsed document applied to `config`; `path` names it in messages.
absl::Status ApplyDocument(const std::string& path, const YAML::Node& root, RunConfig& config,
                           std::vector<std::string>& warnings) {
  if (root.IsNull()) return absl::OkStatus();  // an empty file changes nothing
  if (!root.IsMap()) {
    return absl::InvalidArgumentError(
        absl::StrCat(Where(path, root.Mark()), ": the config must be a mapping of keys"));
  }
  try {
    return ApplyMapping(path, root, "", config, warnings);
  } catch (const YAML::Exception& e) {
    return absl::InvalidArgumentError(absl::StrCat(Where(path, e.mark), ": ", e.msg));
  }
}

}  // namespace

namespace {

absl::Status LoadOneConfigFile(const std::string& path, RunConfig& config,
                               std::vector<std::string>& warnings) {
  absl::StatusOr<std::string> text = engine::rules::ReadInputFile(path);
  if (!text.ok()) {
    return absl::Status(text.status().code(), absl::StrCat(path, ": ", text.status().message()));
  }
  YAML::Node root;
  try {
    root = YAML::Load(*text);
  } catch (const YAML::Exception& e) {
    return absl::InvalidArgumentError(absl::StrCat(Where(path, e.mark), ": ", e.msg));
  }
  return ApplyDocument(path, root, config, warnings);
}

// config_files' entries as files: a directory's *.yaml and *.yml by name; a
// path that does not exist is skipped with a line, as Falco skips it.
std::vector<std::string> ConfigFilesOf(const std::vector<std::string>& entries,
                                       std::vector<std::string>& warnings) {
  std::vector<std::string> files;
  for (const std::string& entry : entries) {
    std::error_code ec;
    if (std::filesystem::is_directory(entry, ec)) {
      std::vector<std::string> in_dir;
      for (const auto& e : std::filesystem::directory_iterator(entry, ec)) {
        const std::string ext = e.path().extension().string();
        if (e.is_regular_file(ec) && (ext == ".yaml" || ext == ".yml")) {
          in_dir.push_back(e.path().string());
        }
      }
      std::sort(in_dir.begin(), in_dir.end());
      files.insert(files.end(), in_dir.begin(), in_dir.end());
    } else if (std::filesystem::exists(entry, ec)) {
      files.push_back(entry);
    } else {
      warnings.push_back(absl::StrCat(entry, ": config_files entry does not exist: skipped"));
    }
  }
  return files;
}

}  // namespace

absl::Status LoadRunConfigFile(const std::string& path, RunConfig& config,
                               std::vector<std::string>& warnings) {
  config.config_files.clear();
  if (absl::Status s = LoadOneConfigFile(path, config, warnings); !s.ok()) return s;
  // The main file's config_files only: an included file's is not followed
  // (Falco's rule too), so no include can loop.
  const std::vector<std::string> included = ConfigFilesOf(config.config_files, warnings);
  const std::vector<std::string> entries = config.config_files;
  for (const std::string& file : included) {
    config.config_files.clear();
    if (absl::Status s = LoadOneConfigFile(file, config, warnings); !s.ok()) return s;
    if (!config.config_files.empty()) {
      warnings.push_back(absl::StrCat(file, ": config_files in an included file is not followed"));
    }
  }
  config.config_files = entries;
  config.loaded_config_files = included;
  config.loaded_config_files.insert(config.loaded_config_files.begin(), path);
  return absl::OkStatus();
}

absl::Status LoadRunConfigText(std::string_view yaml, const std::string& path, RunConfig& config,
                               std::vector<std::string>& warnings) {
  YAML::Node root;
  try {
    root = YAML::Load(std::string(yaml));
  } catch (const YAML::Exception& e) {
    return absl::InvalidArgumentError(absl::StrCat(Where(path, e.mark), ": ", e.msg));
  }
  return ApplyDocument(path, root, config, warnings);
}

outputs::KafkaOptions KafkaOptionsOf(const RunConfig& config) {
  const auto& k = config.kafka_output;
  outputs::KafkaOptions o;
  o.enabled = k.enabled;
  o.brokers = absl::StrJoin(k.brokers, ",");
  o.topic = k.topic;
  o.properties = k.properties;
  o.queue_capacity = k.queue_capacity;
  o.message_timeout_ms = k.message_timeout_ms;
  return o;
}

absl::Status CheckRunConfig(const RunConfig& config) {
  if (config.http_output.enabled) {
    if (absl::Status s = outputs::CheckHttpUrl(config.http_output.url); !s.ok()) return s;
  }
  if (config.kafka_output.enabled) {
    if (absl::Status s = outputs::CheckKafkaOptions(KafkaOptionsOf(config)); !s.ok()) return s;
  }
  const LoadSheddingConfig& shed = config.load_shedding;
  if (shed.stop_fill >= shed.start_fill) {
    return absl::InvalidArgumentError(absl::StrCat("load_shedding.stop_fill (", shed.stop_fill,
                                                   ") must be below load_shedding.start_fill (",
                                                   shed.start_fill, ")"));
  }
  return absl::OkStatus();
}

absl::Status ApplyRunOverride(std::string_view assignment, RunConfig& config) {
  const size_t eq = assignment.find('=');
  if (eq == std::string_view::npos || eq == 0) {
    return absl::InvalidArgumentError(absl::StrCat("-o ", Quote(assignment), ": needs key=value"));
  }
  std::string_view name = assignment.substr(0, eq);
  const std::string value(assignment.substr(eq + 1));
  // Falco's `key[]=value`: appended to the list the key holds.
  const bool append = name.ends_with("[]");
  if (append) name.remove_suffix(2);
  const Key* key = FindKey(name);
  if (key == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat(
        "-o: unknown key ", Quote(name), " (keys: ", absl::StrJoin(RunConfigKeys(), ", "), ")"));
  }
  if (append && key->list == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("-o ", std::string(name), "[]: ", std::string(name), " is not a list"));
  }
  YAML::Node node;
  try {
    node = YAML::Load(value);
  } catch (const YAML::Exception& e) {
    return absl::InvalidArgumentError(absl::StrCat("-o ", std::string(name), ": ", Quote(value),
                                                   " is not a YAML value: ", e.msg));
  }
  // `-o file_output.filename=` is an empty string, not YAML's null.
  if (node.IsNull()) node = YAML::Node(value);
  if (append) {
    std::vector<std::string> more;
    if (absl::Status s = ParseStrings(node, more); !s.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("-o ", std::string(name), "[]: ", s.message()));
    }
    std::vector<std::string>& list = *key->list(config);
    list.insert(list.end(), more.begin(), more.end());
    return absl::OkStatus();
  }
  if (absl::Status s = key->set(node, config); !s.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("-o ", std::string(name), ": ", s.message()));
  }
  return absl::OkStatus();
}

}  // namespace kestrel::agent
