// kestrel.hpp: a C++17 face for kestrel.h, header-only, so a C++ agent
// links the same stable C ABI as everyone else and no C++ type of the
// library's crosses into the program. Errors are kestrel::Error exceptions
// thrown here, in the caller's code, never across the C boundary.
//
//   kestrel::Options options;
//   options.rules_files = {"/etc/kestrel/rules.d"};
//   options.on_alert = [](const kestrel::Alert& a) { std::cout << a.output << "\n"; };
//   kestrel::Agent agent(options);   // reads the config, loads the rules
//   agent.start();                   // on_alert now runs on the reader thread
//   agent.set_rule_enabled("Some rule", false);
//
// Threads, as kestrel.h says: on_alert runs on the agent's reader thread
// (the caller's during replay), on_log on any agent thread; neither may
// call back into the same Agent.
#ifndef KESTREL_HPP_
#define KESTREL_HPP_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "kestrel.h"

namespace kestrel {

class Error : public std::runtime_error {
 public:
  Error(int code, const std::string& what) : std::runtime_error(what), code_(code) {}
  int code() const { return code_; }  // a negative errno, as kestrel.h's calls return

 private:
  int code_;
};

struct OutputField {
  std::string name;
  std::optional<std::string> value;  // raw bytes; nullopt: the event has no value
};

struct Alert {
  std::string rule;
  kestrel_priority priority = KESTREL_PRIORITY_DEBUG;
  std::string priority_name;
  uint64_t time_ns = 0;
  std::string source;
  std::string hostname;
  std::string output;
  std::vector<OutputField> fields;
  std::vector<std::string> tags;
};

struct Options {
  std::optional<std::string> config_file;
  std::vector<std::string> config_keys;  // "key=value"
  std::vector<std::string> rules_files;
  std::vector<std::pair<std::string, std::string>> rules_texts;  // name, YAML
  uint32_t flags = 0;                                            // KESTREL_OPT_*
  std::optional<std::string> pin_dir;                            // with KESTREL_OPT_PIN
  std::function<void(const Alert&)> on_alert;
  std::function<void(kestrel_log_level, const std::string&)> on_log;
};

class Agent {
 public:
  explicit Agent(Options options) : callbacks_(std::make_unique<Callbacks>()) {
    callbacks_->on_alert = std::move(options.on_alert);
    callbacks_->on_log = std::move(options.on_log);
    std::vector<const char*> keys = CStrings(options.config_keys);
    std::vector<const char*> files = CStrings(options.rules_files);
    std::vector<kestrel_rules_text> texts;
    for (const auto& [name, yaml] : options.rules_texts)
      texts.push_back({name.c_str(), yaml.c_str()});
    kestrel_options o;
    kestrel_default_options(&o);
    o.config_file = options.config_file ? options.config_file->c_str() : nullptr;
    o.config_keys = keys.data();
    o.n_config_keys = keys.size();
    o.rules_files = files.data();
    o.n_rules_files = files.size();
    o.rules_texts = texts.data();
    o.n_rules_texts = texts.size();
    o.flags = options.flags;
    o.pin_dir = options.pin_dir ? options.pin_dir->c_str() : nullptr;
    if (callbacks_->on_alert) {
      o.alert_fn = &Callbacks::OnAlert;
      o.alert_ctx = callbacks_.get();
    }
    if (callbacks_->on_log) {
      o.log_fn = &Callbacks::OnLog;
      o.log_ctx = callbacks_.get();
    }
    char err[512] = "";
    Check(kestrel_open(&o, &agent_, err, sizeof err), err);
  }
  ~Agent() { kestrel_close(agent_); }
  Agent(const Agent&) = delete;
  Agent& operator=(const Agent&) = delete;

  void start() { Call(kestrel_start); }
  void replay(const std::string& path) {
    char err[512] = "";
    Check(kestrel_replay(agent_, path.c_str(), err, sizeof err), err);
  }
  void reload() { Call(kestrel_reload); }
  void set_rule_enabled(const std::string& rule, bool enabled) {
    char err[512] = "";
    Check(kestrel_set_rule_enabled(agent_, rule.c_str(), enabled ? 1 : 0, err, sizeof err), err);
  }
  void stop() { Call(kestrel_stop); }
  kestrel_stats stats() const {
    kestrel_stats s{};
    s.struct_size = sizeof(s);
    Check(kestrel_get_stats(agent_, &s), "kestrel_get_stats failed");
    return s;
  }

 private:
  // Owned apart from the Agent so the C side keeps a stable pointer.
  struct Callbacks {
    std::function<void(const Alert&)> on_alert;
    std::function<void(kestrel_log_level, const std::string&)> on_log;

    // Exceptions end here: they must not unwind through the C library.
    static void OnAlert(void* ctx, const kestrel_alert* a) noexcept {
      try {
        Alert alert;
        alert.rule = a->rule;
        alert.priority = a->priority;
        alert.priority_name = a->priority_name;
        alert.time_ns = a->time_ns;
        alert.source = a->source;
        alert.hostname = a->hostname;
        alert.output = a->output;
        for (size_t i = 0; i < a->n_fields; ++i) {
          const kestrel_output_field& f = a->fields[i];
          OutputField field{f.name, std::nullopt};
          if (f.value != nullptr) field.value = std::string(f.value, f.value_len);
          alert.fields.push_back(std::move(field));
        }
        for (size_t i = 0; i < a->n_tags; ++i) alert.tags.emplace_back(a->tags[i]);
        static_cast<Callbacks*>(ctx)->on_alert(alert);
      } catch (...) {
      }
    }
    static void OnLog(void* ctx, kestrel_log_level level, const char* line) noexcept {
      try {
        static_cast<Callbacks*>(ctx)->on_log(level, line);
      } catch (...) {
      }
    }
  };

  static std::vector<const char*> CStrings(const std::vector<std::string>& v) {
    std::vector<const char*> out;
    for (const std::string& s : v) out.push_back(s.c_str());
    return out;
  }
  static void Check(int rc, const char* err) {
    if (rc < 0) throw Error(rc, err);
  }
  void Call(int (*fn)(kestrel_agent*, char*, size_t)) {
    char err[512] = "";
    Check(fn(agent_, err, sizeof err), err);
  }

  std::unique_ptr<Callbacks> callbacks_;
  kestrel_agent* agent_ = nullptr;
};

}  // namespace kestrel

#endif  // KESTREL_HPP_
