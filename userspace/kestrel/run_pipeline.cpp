#include "run_pipeline.h"

#include <unistd.h>

#include <climits>

#include "engine/decode/drop_marker.h"
#include "engine/decode/event_decoder.h"
#include "engine/decode/generic_syscall.h"
#include "engine/decode/record_view.h"
#include "engine/decode/syscall_names.h"
#include "engine/fields/event_context.h"
#include "shared/event_types.h"

namespace kestrel::cli {
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
                         engine::alerts::AlertOutputs& outputs, uint64_t boot_time_ns,
                         bool first_only)
    : fields_(fields),
      threads_(threads),
      outputs_(outputs),
      boot_time_ns_(boot_time_ns),
      first_only_(first_only),
      hostname_(HostName()),
      extractor_(fields, &users_) {}

void RunPipeline::ReadAs(const engine::SchemaTable& schema, std::string hostname) {
  schema_ = &schema;
  if (!hostname.empty()) hostname_ = std::move(hostname);
}

void RunPipeline::SetRules(std::shared_ptr<const RunRules> rules) {
  rules_ = std::move(rules);
  pending_.reset();
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
  if (h.type <= KESTREL_EVT_SYSCALL_BASE || h.type >= KESTREL_EVT_TYPE_MAX) {
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
  extractor_.SetEvent(context());
  rules_->ruleset->Evaluate(syscall, extractor_, first_only_,
                            [&](const engine::rules::Rule& rule) { Emit(rule, header); });
}

void RunPipeline::Emit(const engine::rules::Rule& rule, const kestrel_record_header& header) {
  alert_.time_ns = header.ts_ns + boot_time_ns_;
  alert_.rule = rule.name;
  alert_.priority = rule.priority;
  alert_.source = rule.source;
  alert_.tags = rule.tags;
  alert_.hostname = hostname_;
  rules_->outputs[rules_->IndexOf(rule)].Render(extractor_, alert_.output, alert_.output_fields);
  ++counters_.alerts[static_cast<size_t>(rule.priority)];
  if (extractor_.ContainerMetadataPending()) ++counters_.alerts_before_metadata;
  outputs_.Emit(alert_);
  if (capture_ != nullptr) capture_->OnAlert(rule, header, counters_.records);
}

}  // namespace kestrel::cli
