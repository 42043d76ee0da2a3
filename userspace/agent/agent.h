// The agent: what `kestrel run` does, as a library. It reads Falco's config
// keys and rules, derives the syscall set and probe settings from the rules,
// runs the record -> state -> rules -> alert pipeline on the live probe (on
// a reader thread of its own) or on a capture file, sends alerts to the
// configured channels and to the embedder's callback, reloads rules live
// keeping the old ones on error, and sheds load and watches for tampering.
//
// The C ABI (kestrel.h) wraps this class; `kestrel run` is its thinnest
// client. Everything under agent/config, rules, pipeline, control and
// outputs is this class's inside (see README.md here).
#ifndef KESTREL_AGENT_AGENT_H_
#define KESTREL_AGENT_AGENT_H_

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "libpman.h"

namespace kestrel::engine::alerts {
struct Alert;
}

namespace kestrel::agent {

enum class LogLevel { kInfo, kWarning, kError };

struct AgentOptions {
  // Falco's config file, then `key=value` assignments (`-o`, `key[]=value`
  // appends to a list key) over it.
  std::optional<std::string> config_file;
  std::vector<std::string> config_keys;
  // Rules files or directories, in place of the config's rules_files.
  std::vector<std::string> rules_files;
  // Rules as YAML text, loaded after the files (`name` stands for a file in
  // messages). With neither files nor texts: Kestrel's own rules.
  struct RulesText {
    std::string name;
    std::string yaml;
  };
  std::vector<RulesText> rules_texts;
  bool strict = false;  // a rule naming a field Kestrel lacks is an error
  // Ask the configured container runtimes (container_engines.*) for
  // container metadata; off for a replay (the file's host is not this one).
  bool container_runtimes = true;
  // Pin the capture for other processes (`kestrel syscalls`, `kestrel
  // settings`); empty: libpman's default directory.
  std::optional<std::string> pin_dir;
  uint64_t buffer_bytes = PMAN_DEFAULT_BUFFER_BYTES;
  uint32_t cpus_per_buffer = PMAN_CPUS_PER_BUFFER_AUTO;
  bool lock_settings = false;  // freeze the probe's settings once set up
  // The config's alert channels (stdout, file, syslog, program, HTTP);
  // false: alerts reach on_alert only.
  bool config_outputs = true;
  bool watch_rules_files = true;           // reload when a rules file changes
  std::optional<double> stats_interval_s;  // a stats line to `log` every N s
  // Keep what DescribeRules prints (compiled conditions, macros, lists):
  // memory a run does not otherwise spend.
  bool describe_rules = false;
  // Progress, warnings and errors, one line each; called from any of the
  // agent's threads, never concurrently with itself for one line.
  std::function<void(LogLevel, const std::string&)> log;
  // Every alert, before the channels, on the thread that raised it: the
  // reader thread of a live run, the caller's for a replay. It must not
  // call back into the agent.
  std::function<void(const engine::alerts::Alert&)> on_alert;
};

// Published by the reader between batches of records: at most a batch (a
// few ms) behind what the callback was told.
struct AgentStats {
  uint64_t records = 0;      // records read, drop markers included
  uint64_t events = 0;       // syscall events judged by the rules
  uint64_t lost = 0;         // records the probe could not write, as its markers say
  uint64_t undecodable = 0;  // records that did not decode
  uint64_t alerts = 0;
  std::array<uint64_t, 8> alerts_by_priority{};  // by engine::rules::Priority
  uint64_t rules_loaded = 0;                     // loaded and not skipped, enabled or not
  uint64_t rules_enabled = 0;                    // of those, enabled
  uint64_t rules_evaluated = 0;  // of those, enabled and at or above the priority threshold
  uint64_t rules_skipped = 0;    // left out with a warning (a field Kestrel lacks)
  uint64_t syscalls = 0;         // in the probe's set now
  uint64_t reloads = 0;
  uint64_t reloads_failed = 0;
};

// What is wrong with the first bad `key=value` config assignment (an unknown
// key, a bad value), found with nothing else read: a command line's -o is
// checked before anything starts.
absl::Status CheckConfigAssignments(const std::vector<std::string>& assignments);

class Agent {
 public:
  // Reads the config and loads the rules. An error in either is
  // InvalidArgumentError naming the place; each diagnostic (warnings too)
  // goes to options.log.
  static absl::StatusOr<std::unique_ptr<Agent>> Open(AgentOptions options);
  ~Agent();  // Stop()
  Agent(const Agent&) = delete;
  Agent& operator=(const Agent&) = delete;

  // What a dry run shows: the channels Start would refuse (nothing opened),
  // the syscall set with each syscall's reasons, and the summary lines.
  absl::Status CheckOutputs() const;
  std::string SyscallSetText() const;
  // The ids of that set, as the probe would capture them.
  std::vector<uint32_t> SyscallIds() const;
  std::vector<std::string> Summary() const;

  // Starts the channels, loads and attaches the probe and runs the pipeline
  // on a reader thread until Stop. InvalidArgumentError: a channel cannot
  // start; PermissionDeniedError: privileges missing;
  // FailedPreconditionError: no kernel BTF; InternalError: the probe did
  // not load (the log says why); AlreadyExistsError: started before.
  absl::Status Start();
  // Judges a capture file's records on the caller's thread, as fast as it
  // reads, then closes the channels. NotFound/DataLoss: the file cannot be
  // read or is damaged (the alerts before the damage are out).
  absl::Status Replay(const std::string& path);
  // The capture file the config names to replay (engine.kind: replay and
  // engine.replay.capture_file), or nullopt for a live run.
  std::optional<std::string> ConfiguredReplay() const;
  // Stops a live run: what the probe wrote before it stopped is still
  // judged, then the channels drain (at most ~1 s). Error when the probe
  // did not settle. Idempotent.
  absl::Status Stop();
  // Whether the reader thread runs.
  bool running() const;

  // Asks for the rules to be loaded again (files as they are now); a
  // failed load leaves the running rules. Never blocks: safe from the
  // thread that handles signals.
  void RequestReload();
  // Loads the rules again and returns once they judge events (or the load
  // failed: the error says why, the running rules stay).
  absl::Status Reload();
  // Enables or disables a rule by name, then Reload(): the syscalls it
  // needs are added to (or removed from) the running probe's set.
  absl::Status SetRuleEnabled(std::string_view name, bool enabled);
  // file_output's file is reopened before its next write (logrotate).
  void ReopenOutputs();

  // Falco's -L / -l (text) and describe-rules JSON: every rule, macro and
  // list as loaded, or the rule named `rule` alone; JSON when `json` says
  // so, else as the config's json_output says (Falco's -L). Needs
  // AgentOptions::describe_rules (else FailedPrecondition); NotFoundError
  // when no loaded rule has that name.
  absl::StatusOr<std::string> DescribeRules(std::optional<std::string_view> rule,
                                            std::optional<bool> json = std::nullopt) const;
  // Falco's --support: one JSON document with the versions (Kestrel's, the
  // rules engine's, libbpf's), the kernel (uname), the config as loaded
  // (every key's effective value) and each rules file read (its path and
  // the sha256 of its content). Loads nothing more.
  std::string SupportJson() const;

  AgentStats Stats() const;
  // After Stop: the probe's accounting (records attempted = consumed + left
  // unread + dropped, per CPU), several lines.
  std::string ProbeReport() const;

  class Impl;

 private:
  explicit Agent(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace kestrel::agent

#endif  // KESTREL_AGENT_AGENT_H_
