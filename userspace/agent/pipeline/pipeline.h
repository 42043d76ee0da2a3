// The engine of `kestrel run`, fed one record at a time by the live probe
// or a capture file alike: decode, update the thread table, evaluate the
// rules that can match the event's syscall, and emit an alert per match.
#ifndef KESTREL_AGENT_PIPELINE_PIPELINE_H_
#define KESTREL_AGENT_PIPELINE_PIPELINE_H_

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/functional/function_ref.h"
#include "agent/outputs/alert_outputs.h"
#include "agent/pipeline/capture_window.h"
#include "agent/pipeline/held_events.h"
#include "agent/rules/run_rules.h"
#include "engine/alerts/alert.h"
#include "engine/decode/schema_table.h"
#include "engine/dns/address_names.h"
#include "engine/fields/field_extractor.h"
#include "engine/fields/field_registry.h"
#include "engine/state/thread_table.h"
#include "engine/state/user_directory.h"
#include "shared/record_format.h"

namespace kestrel::agent {

struct RunCounters {
  uint64_t records = 0;              // every record taken, drop markers included
  uint64_t events = 0;               // syscall events evaluated against the rules
  uint64_t undecodable = 0;          // records that did not decode
  uint64_t lost = 0;                 // records the probe lost, as its drop markers say
  uint64_t drop_markers = 0;         // of records: the markers, which the probe counts apart
  std::array<uint64_t, 8> alerts{};  // by engine::rules::Priority
  // Alerts about a process in a container whose metadata had not arrived.
  uint64_t alerts_before_metadata = 0;
  // Alerts raised by rules judging a held event (run_held_events.h).
  uint64_t alerts_judged_late = 0;
  // Alerts by rule name (the metrics' rules counters): only rules that
  // raised one are here.
  struct RuleAlerts {
    engine::rules::Priority priority = engine::rules::Priority::kDebug;
    std::string source;
    uint64_t count = 0;
  };
  std::map<std::string, RuleAlerts, std::less<>> alerts_by_rule;
  uint64_t AlertsTotal() const;
};

class RunPipeline {
 public:
  // `fields` resolved the rules' fields; `threads` is fed by this pipeline
  // only; `outputs` receives the alerts. All must outlive the pipeline.
  RunPipeline(const engine::fields::FieldRegistry& fields, engine::ThreadTable& threads,
              outputs::AlertOutputs& outputs, uint64_t boot_time_ns, bool first_only);

  // The rules evaluated from now on.
  void SetRules(std::shared_ptr<const RunRules> rules);

  // Rules that take over from the first record at or after `ts_ns` (the
  // probe's boot-time clock): records made before a reload are judged by
  // the rules of their time, whenever they are read.
  void SetRulesFrom(std::shared_ptr<const RunRules> rules, uint64_t ts_ns);
  bool switch_pending() const { return pending_ != nullptr; }

  // A capture file's records are read through the schema it embeds, and
  // its alerts name the host it was captured on.
  void ReadAs(const engine::SchemaTable& schema, std::string hostname);

  void Take(const kestrel_record_header* record);

  // Where records and the alerts of capture rules go too (null: nowhere);
  // must outlive the pipeline.
  void SetCapture(AlertCapture* capture);

  // Where container metadata comes from; null: nowhere. Must outlive this.
  void SetContainerMetadata(engine::containers::ContainerMetadataCache* cache) {
    containers_ = cache;
    extractor_.SetContainerMetadata(cache);
  }

  // The rules the last swap replaced, for another thread to free (a large
  // set takes tens of milliseconds); freed at the next swap otherwise.
  std::shared_ptr<const RunRules> TakeRetiredRules() { return std::move(retired_); }

  // Where the names the rules compare fd.*ip.name with are resolved (null:
  // nowhere, those fields are absent); the rules set from now on say which
  // names. Must outlive this.
  void SetAddressNames(engine::dns::AddressNames* names) {
    address_names_ = names;
    extractor_.SetAddressNames(names);
    if (names != nullptr && rules_) names->Watch(rules_->ruleset->AddressNames());
  }

  // Judges the held events whose container's metadata arrived or will not
  // come (see run_held_events.h), all of them with `flush`; called between
  // batches, and with `flush` once before stopping.
  void JudgeHeld(bool flush = false);
  const HeldEvents::Counters& held_counters() const { return held_.counters(); }

  const RunCounters& counters() const { return counters_; }
  const engine::ThreadTable& threads() const { return threads_; }
  const RunRules& rules() const { return *rules_; }

 private:
  struct TypeInfo {
    bool known = false;
    int64_t syscall = -1;  // -1: no syscall (not evaluated)
    bool close = false;    // fields read before the table forgets the fd
  };
  const TypeInfo& InfoOf(uint16_t type, std::string_view syscall_name);
  // `context` is built only when a rule can match the syscall.
  void Evaluate(const kestrel_record_header& header, uint32_t syscall,
                absl::FunctionRef<engine::fields::EventContext()> context);
  // Keeps the current record for `late_rules_` (see HeldEvents); false
  // when it could not.
  bool Hold(const engine::fields::EventContext& context);
  void Judge(const HeldEvent& held);
  void Emit(const RunRules& rules, const engine::rules::Rule& rule,
            const kestrel_record_header& header, uint64_t num);

  const engine::fields::FieldRegistry& fields_;
  engine::ThreadTable& threads_;
  outputs::AlertOutputs& outputs_;
  const uint64_t boot_time_ns_;
  const bool first_only_;
  std::string hostname_;  // evt.hostname: this host's, or the capture's
  // Alert::hostname: hostname_, unless FALCO_HOSTNAME overrides it.
  const std::optional<std::string> alert_hostname_;
  const engine::SchemaTable* schema_ = &engine::SchemaTable::Compiled();
  engine::state::UserDirectory users_;
  engine::fields::FieldExtractor extractor_;
  std::shared_ptr<const RunRules> rules_;
  std::shared_ptr<const RunRules> pending_;
  std::shared_ptr<const RunRules> retired_;
  uint64_t pending_from_ns_ = 0;
  std::vector<TypeInfo> types_;
  RunCounters counters_;
  engine::alerts::Alert alert_;  // reused: its strings keep their capacity
  AlertCapture* capture_ = nullptr;
  engine::containers::ContainerMetadataCache* containers_ = nullptr;
  engine::dns::AddressNames* address_names_ = nullptr;
  HeldEvents held_;
  const kestrel_record_header* record_ = nullptr;  // the record Take is on
  std::vector<uint32_t> late_rules_;               // reused from event to event
};

}  // namespace kestrel::agent

#endif  // KESTREL_AGENT_PIPELINE_PIPELINE_H_
