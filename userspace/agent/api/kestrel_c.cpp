// kestrel.h over agent::Agent: handles, struct_size, negative errno and a
// message, and no exception or C++ type crossing the boundary.
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <exception>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "agent/agent.h"
#include "agent/api/kestrel.h"
#include "engine/alerts/alert.h"
#include "engine/rules/priority.h"

struct kestrel_agent {
  std::unique_ptr<kestrel::agent::Agent> agent;
  // The callback's view of one alert, rebuilt per alert; reused so its
  // vectors keep their capacity.
  std::vector<kestrel_output_field> fields;
  std::vector<const char*> tags;
};

namespace {

using kestrel::agent::Agent;

int ErrnoOf(const absl::Status& s) {
  switch (s.code()) {
    case absl::StatusCode::kOk:
      return 0;
    case absl::StatusCode::kInvalidArgument:
      return -EINVAL;
    case absl::StatusCode::kPermissionDenied:
      return -EPERM;
    case absl::StatusCode::kNotFound:
      return -ENOENT;
    case absl::StatusCode::kAlreadyExists:
      return -EALREADY;
    case absl::StatusCode::kCancelled:
      return -ECANCELED;
    case absl::StatusCode::kFailedPrecondition:  // kernel BTF missing
      return -ENOTSUP;
    default:
      return -EIO;
  }
}

void WriteError(char* err, size_t err_len, std::string_view what) {
  if (err == nullptr || err_len == 0) return;
  const size_t n = std::min(what.size(), err_len - 1);
  std::memcpy(err, what.data(), n);
  err[n] = '\0';
}

int Fail(char* err, size_t err_len, const absl::Status& s) {
  WriteError(err, err_len, std::string(s.message()));
  return ErrnoOf(s);
}

// Runs `call`, turning a status into the C convention and any exception
// (allocation failure, a bug) into -EIO with its message: nothing thrown
// leaves the library.
template <typename Call>
int Guarded(char* err, size_t err_len, Call call) {
  try {
    const absl::Status s = call();
    return s.ok() ? 0 : Fail(err, err_len, s);
  } catch (const std::bad_alloc&) {
    WriteError(err, err_len, "out of memory");
    return -ENOMEM;
  } catch (const std::exception& e) {
    WriteError(err, err_len, e.what());
    return -EIO;
  } catch (...) {
    WriteError(err, err_len, "unknown error");
    return -EIO;
  }
}

std::vector<std::string> Strings(const char* const* items, size_t n) {
  std::vector<std::string> out;
  for (size_t i = 0; i < n; ++i) {
    if (items[i] != nullptr) out.emplace_back(items[i]);
  }
  return out;
}

// The options as the caller's header sized them: fields past its
// struct_size keep their defaults.
kestrel_options Sized(const kestrel_options* given) {
  kestrel_options o;
  kestrel_default_options(&o);
  const size_t n = std::min(given->struct_size, sizeof(o));
  std::memcpy(&o, given, n);
  o.struct_size = sizeof(o);
  return o;
}

void DeliverAlert(kestrel_agent* h, kestrel_alert_fn fn, void* ctx,
                  const kestrel::engine::alerts::Alert& a) {
  h->fields.clear();
  for (const kestrel::engine::alerts::OutputField& f : a.output_fields) {
    h->fields.push_back(
        {f.name.c_str(), f.value ? f.value->c_str() : nullptr, f.value ? f.value->size() : 0});
  }
  h->tags.clear();
  for (const std::string& t : a.tags) h->tags.push_back(t.c_str());
  kestrel_alert out{};
  out.struct_size = sizeof(out);
  out.rule = a.rule.c_str();
  out.priority = static_cast<kestrel_priority>(a.priority);
  // PriorityName's views are of string literals: NUL-terminated.
  out.priority_name = kestrel::engine::rules::PriorityName(a.priority).data();
  out.time_ns = a.time_ns;
  out.source = a.source.c_str();
  out.hostname = a.hostname.c_str();
  out.output = a.output.c_str();
  out.fields = h->fields.data();
  out.n_fields = h->fields.size();
  out.tags = h->tags.data();
  out.n_tags = h->tags.size();
  fn(ctx, &out);
}

}  // namespace

extern "C" {

uint32_t kestrel_abi_version(void) { return KESTREL_ABI_VERSION; }

const char* kestrel_version(void) { return KESTREL_VERSION; }

void kestrel_default_options(kestrel_options* options) {
  if (options == nullptr) return;
  *options = kestrel_options{};
  options->struct_size = sizeof(*options);
}

int kestrel_open(const kestrel_options* options, kestrel_agent** agent, char* err, size_t err_len) {
  if (options == nullptr || agent == nullptr || options->struct_size == 0) {
    WriteError(err, err_len, "kestrel_open: options and agent must not be NULL");
    return -EINVAL;
  }
  *agent = nullptr;
  return Guarded(err, err_len, [&]() -> absl::Status {
    const kestrel_options o = Sized(options);
    auto handle = std::make_unique<kestrel_agent>();
    kestrel::agent::AgentOptions a;
    if (o.config_file != nullptr) a.config_file = o.config_file;
    a.config_keys = Strings(o.config_keys, o.n_config_keys);
    a.rules_files = Strings(o.rules_files, o.n_rules_files);
    for (size_t i = 0; i < o.n_rules_texts; ++i) {
      const kestrel_rules_text& t = o.rules_texts[i];
      if (t.yaml == nullptr) return absl::InvalidArgumentError("rules_texts: a NULL yaml");
      a.rules_texts.push_back({t.name != nullptr ? t.name : "(rules text)", t.yaml});
    }
    a.strict = (o.flags & KESTREL_OPT_STRICT) != 0;
    a.container_runtimes = (o.flags & KESTREL_OPT_NO_CONTAINER_RUNTIMES) == 0;
    if (o.flags & KESTREL_OPT_PIN) a.pin_dir = o.pin_dir != nullptr ? o.pin_dir : "";
    a.config_outputs = (o.flags & KESTREL_OPT_CONFIG_OUTPUTS) != 0;
    a.watch_rules_files = (o.flags & KESTREL_OPT_NO_RULES_WATCH) == 0;
    if (o.log_fn != nullptr) {
      a.log = [fn = o.log_fn, ctx = o.log_ctx](kestrel::agent::LogLevel level,
                                               const std::string& line) {
        fn(ctx, static_cast<kestrel_log_level>(level), line.c_str());
      };
    }
    if (o.alert_fn != nullptr) {
      a.on_alert = [h = handle.get(), fn = o.alert_fn,
                    ctx = o.alert_ctx](const kestrel::engine::alerts::Alert& alert) {
        DeliverAlert(h, fn, ctx, alert);
      };
    }
    absl::StatusOr<std::unique_ptr<Agent>> opened = Agent::Open(std::move(a));
    if (!opened.ok()) return opened.status();
    handle->agent = *std::move(opened);
    *agent = handle.release();
    return absl::OkStatus();
  });
}

int kestrel_start(kestrel_agent* agent, char* err, size_t err_len) {
  if (agent == nullptr) return -EINVAL;
  return Guarded(err, err_len, [&] { return agent->agent->Start(); });
}

int kestrel_replay(kestrel_agent* agent, const char* path, char* err, size_t err_len) {
  if (agent == nullptr || path == nullptr) return -EINVAL;
  return Guarded(err, err_len, [&] { return agent->agent->Replay(path); });
}

int kestrel_reload(kestrel_agent* agent, char* err, size_t err_len) {
  if (agent == nullptr) return -EINVAL;
  return Guarded(err, err_len, [&] { return agent->agent->Reload(); });
}

int kestrel_set_rule_enabled(kestrel_agent* agent, const char* rule, int enabled, char* err,
                             size_t err_len) {
  if (agent == nullptr || rule == nullptr) return -EINVAL;
  return Guarded(err, err_len, [&] { return agent->agent->SetRuleEnabled(rule, enabled != 0); });
}

int kestrel_stop(kestrel_agent* agent, char* err, size_t err_len) {
  if (agent == nullptr) return -EINVAL;
  return Guarded(err, err_len, [&] { return agent->agent->Stop(); });
}

int kestrel_get_stats(kestrel_agent* agent, kestrel_stats* stats) {
  if (agent == nullptr || stats == nullptr || stats->struct_size == 0) return -EINVAL;
  return Guarded(nullptr, 0, [&] {
    const kestrel::agent::AgentStats s = agent->agent->Stats();
    kestrel_stats out{};
    out.struct_size = sizeof(out);
    out.records = s.records;
    out.events = s.events;
    out.lost = s.lost;
    out.undecodable = s.undecodable;
    out.alerts = s.alerts;
    for (size_t i = 0; i < 8; ++i) out.alerts_by_priority[i] = s.alerts_by_priority[i];
    out.rules_loaded = s.rules_loaded;
    out.rules_enabled = s.rules_enabled;
    out.rules_evaluated = s.rules_evaluated;
    out.rules_skipped = s.rules_skipped;
    out.syscalls = s.syscalls;
    out.reloads = s.reloads;
    out.reloads_failed = s.reloads_failed;
    const size_t n = std::min(stats->struct_size, sizeof(out));
    std::memcpy(stats, &out, n);
    stats->struct_size = n;
    return absl::OkStatus();
  });
}

void kestrel_close(kestrel_agent* agent) {
  if (agent == nullptr) return;
  try {
    agent->agent->Stop().IgnoreError();
  } catch (...) {
  }
  delete agent;
}

}  // extern "C"
