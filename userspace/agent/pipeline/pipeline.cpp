#include "agent/pipeline/pipeline.h"

#include <unistd.h>

#include <climits>
#include <utility>

#include "agent/probe/read_tally.h"
#include "engine/decode/drop_marker.h"
#include "engine/decode/event_decoder.h"
#include "engine/decode/generic_syscall.h"
#include "engine/decode/record_view.h"
#include "engine/decode/syscall_names.h"
#include "engine/fields/event_context.h"
#include "engine/state/container_id.h"
#include "shared/event_types.h"

namespace kestrel::agent {
namespace {

std::string HostName() {
  char name[HOST_NAME_MAX + 1] = {};
  if (gethostname(name, sizeof name - 1) != 0) return "";
  return name;
}

}  // namespace

uint64_t RunCounters::AlertsTotal() const {
  uint64_t total = 0;
  for (uint64_t n : alerts) total += n;
  return total;
}

RunPipeline::RunPipeline(const engine::fields::FieldRegistry& fields, engine::ThreadTable& threads,
                         outputs::AlertOutputs& outputs, uint64_t boot_time_ns, bool first_only)
    : fields_(fields),
      threads_(threads),
      outputs_(outputs),
      boot_time_ns_(boot_time_ns),
      first_only_(first_only),
      hostname_(HostName()),
      alert_hostname_(engine::alerts::HostnameOverride()),
      extractor_(fields, &users_) {
  extractor_.SetHostname(hostname_);
  // Live records are this host's: what the probe does not record is read
  // from its /proc when a rule asks.
  extractor_.SetProcDir("/proc");
}

void RunPipeline::ReadAs(const engine::SchemaTable& schema, std::string hostname) {
  schema_ = &schema;
  if (!hostname.empty()) hostname_ = std::move(hostname);
  extractor_.SetHostname(hostname_);
  // A capture's processes are not this host's (nor alive): no /proc.
  extractor_.SetProcDir("");
}

void RunPipeline::SetRules(std::shared_ptr<const RunRules> rules) {
  // The rules replaced are not freed here, on the reader: a large set takes
  // tens of milliseconds to free, time in which a flood fills the ring.
  retired_ = std::exchange(rules_, std::move(rules));
  pending_.reset();
  if (address_names_ != nullptr && rules_) address_names_->Watch(rules_->ruleset->AddressNames());
  if (capture_ != nullptr && rules_) capture_->UseRules(*rules_->ruleset);
}

void RunPipeline::SetCapture(AlertCapture* capture) {
  capture_ = capture;
  if (capture_ != nullptr && rules_) capture_->UseRules(*rules_->ruleset);
}

void RunPipeline::SetRulesFrom(std::shared_ptr<const RunRules> rules, uint64_t ts_ns) {
  pending_ = std::move(rules);
  pending_from_ns_ = ts_ns;
}

const RunPipeline::TypeInfo& RunPipeline::InfoOf(uint16_t type, std::string_view syscall_name) {
  if (type >= types_.size()) types_.resize(type + 1);
  TypeInfo& info = types_[type];
  if (!info.known) {
    info.known = true;
    if (std::optional<uint32_t> id = engine::SyscallId(syscall_name)) {
      info.syscall = *id;
      info.close = syscall_name == "close";
    }
  }
  return info;
}

void RunPipeline::Take(const kestrel_record_header* record) {
  ++counters_.records;
  record_ = record;
  if (pending_ && record->ts_ns >= pending_from_ns_) SetRules(std::move(pending_));
  if (capture_ != nullptr) capture_->Take(record);
  absl::StatusOr<engine::RecordView> view =
      engine::RecordView::Parse(record, KESTREL_MAX_RECORD_BYTES, *schema_);
  if (!view.ok()) {
    ++counters_.undecodable;
    return;
  }
  const kestrel_record_header& h = view->header();
  if (engine::IsDropMarker(*view)) {
    ++counters_.drop_markers;
    if (absl::StatusOr<engine::DropMarker> marker = engine::DecodeDropMarker(*view); marker.ok()) {
      counters_.lost += marker->lost;
    }
    return;
  }
  // evt.reltime counts from the first syscall event taken (as libsinsp
  // counts from the first event that is not a meta event).
  if (IsSyscallEvent(h) && !extractor_.HasFirstEventTime()) extractor_.SetFirstEventTime(h.ts_ns);
  if (h.type == KESTREL_EVT_GENERIC_SYSCALL) {
    absl::StatusOr<engine::GenericSyscall> sc = engine::DecodeGenericSyscall(*view);
    if (!sc.ok()) {
      ++counters_.undecodable;
      return;
    }
    threads_.ApplyGeneric(h, *sc);
    Evaluate(h, sc->id, [&] {
      return engine::fields::MakeGenericContext(h, *sc, threads_, counters_.records, boot_time_ns_);
    });
    return;
  }
  if (!IsSyscallEvent(h)) {
    // Control and process-exit records (and a capture file's snapshot)
    // only keep the state current.
    threads_.Apply(*view);
    return;
  }
  absl::StatusOr<engine::DecodedEvent> event = engine::DecodedEvent::Decode(*view, *schema_);
  if (!event.ok()) {
    ++counters_.undecodable;
    return;
  }
  const TypeInfo& info = InfoOf(h.type, event->info().syscall);
  if (info.syscall < 0) {
    threads_.ApplyEvent(*event);
    return;
  }
  const auto context = [&] {
    return engine::fields::MakeEventContext(*event, threads_, counters_.records, boot_time_ns_);
  };
  if (info.close) {
    Evaluate(h, static_cast<uint32_t>(info.syscall), context);
    threads_.ApplyEvent(*event);
    return;
  }
  threads_.ApplyEvent(*event);
  Evaluate(h, static_cast<uint32_t>(info.syscall), context);
}

void RunPipeline::Evaluate(const kestrel_record_header& header, uint32_t syscall,
                           absl::FunctionRef<engine::fields::EventContext()> context) {
  ++counters_.events;
  if (!rules_ || !rules_->ruleset->Judges(syscall)) return;
  const engine::fields::EventContext ctx = context();
  extractor_.SetEvent(ctx);
  const auto emit = [&](const engine::rules::Rule& rule) {
    Emit(*rules_, rule, header, counters_.records);
  };
  if (containers_ == nullptr || !rules_->ruleset->JudgesLate(syscall) ||
      !extractor_.ContainerMetadataAsking()) {
    rules_->ruleset->Evaluate(syscall, extractor_, first_only_, emit);
    return;
  }
  late_rules_.clear();
  rules_->ruleset->EvaluateLate(syscall, extractor_, first_only_, emit,
                                [&](uint32_t rule) { late_rules_.push_back(rule); });
  // Past the bounds, the event is judged by them now, with what is known.
  if (!late_rules_.empty() && !Hold(ctx)) {
    rules_->ruleset->Rejudge(late_rules_, extractor_, emit);
  }
}

bool RunPipeline::Hold(const engine::fields::EventContext& context) {
  if (context.thread == nullptr) return false;
  HeldEvent held;
  const auto* bytes = reinterpret_cast<const uint8_t*>(record_);
  held.record.assign(bytes, bytes + record_->len);
  held.thread = *context.thread;
  if (context.fd_info != nullptr) held.fd = *context.fd_info;
  held.num = counters_.records;
  held.container_id = engine::state::ContainerIdFromCgroupPath(context.thread->cgroup).full_id;
  held.rules = rules_;
  held.rule_indexes = late_rules_;
  held.held_at = std::chrono::steady_clock::now();
  return held_.Hold(std::move(held));
}

void RunPipeline::JudgeHeld(bool flush) {
  if (containers_ == nullptr || held_.empty()) return;
  held_.Release(*containers_, std::chrono::steady_clock::now(), flush,
                [this](const HeldEvent& held) { Judge(held); });
}

void RunPipeline::Judge(const HeldEvent& held) {
  const auto* header = reinterpret_cast<const kestrel_record_header*>(held.record.data());
  absl::StatusOr<engine::RecordView> view =
      engine::RecordView::Parse(header, held.record.size(), *schema_);
  if (!view.ok()) return;
  std::optional<engine::GenericSyscall> generic;
  std::optional<engine::DecodedEvent> event;
  engine::fields::EventContext ctx;
  if (header->type == KESTREL_EVT_GENERIC_SYSCALL) {
    absl::StatusOr<engine::GenericSyscall> sc = engine::DecodeGenericSyscall(*view);
    if (!sc.ok()) return;
    generic = *std::move(sc);
    ctx = engine::fields::MakeGenericContext(*header, *generic, threads_, held.num, boot_time_ns_);
  } else {
    absl::StatusOr<engine::DecodedEvent> decoded = engine::DecodedEvent::Decode(*view, *schema_);
    if (!decoded.ok()) return;
    event = *std::move(decoded);
    ctx = engine::fields::MakeEventContext(*event, threads_, held.num, boot_time_ns_);
  }
  ctx.thread = &held.thread;
  ctx.fd_info = held.fd ? &*held.fd : nullptr;
  extractor_.SetEvent(ctx);
  held.rules->ruleset->Rejudge(held.rule_indexes, extractor_, [&](const engine::rules::Rule& rule) {
    ++counters_.alerts_judged_late;
    Emit(*held.rules, rule, *header, held.num);
  });
}

void RunPipeline::Emit(const RunRules& rules, const engine::rules::Rule& rule,
                       const kestrel_record_header& header, uint64_t num) {
  alert_.time_ns = header.ts_ns + boot_time_ns_;
  alert_.rule = rule.name;
  alert_.priority = rule.priority;
  alert_.source = rule.source;
  alert_.tags = rule.tags;
  alert_.hostname = alert_hostname_ ? *alert_hostname_ : hostname_;
  rules.outputs[rules.IndexOf(rule)].Render(extractor_, alert_.output, alert_.output_fields,
                                            &alert_.raw_output);
  ++counters_.alerts[static_cast<size_t>(rule.priority)];
  auto by_rule = counters_.alerts_by_rule.find(rule.name);
  if (by_rule == counters_.alerts_by_rule.end()) {
    by_rule = counters_.alerts_by_rule.emplace(rule.name, RunCounters::RuleAlerts{}).first;
    by_rule->second.source = rule.source;
  }
  by_rule->second.priority = rule.priority;
  ++by_rule->second.count;
  if (extractor_.ContainerMetadataPending()) ++counters_.alerts_before_metadata;
  outputs_.Emit(alert_);
  if (capture_ != nullptr) capture_->OnAlert(rule, header, num);
}

}  // namespace kestrel::agent
