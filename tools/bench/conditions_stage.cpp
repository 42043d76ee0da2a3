#include "bench/conditions_stage.h"

#include "engine/decode/event_decoder.h"
#include "engine/decode/generic_syscall.h"
#include "engine/fields/event_context.h"
#include "engine/filter/parser.h"
#include "shared/event_types.h"

namespace kestrel::bench {
namespace {

// Shaped like the conditions of Falco's default rules.
constexpr const char* kConditions[ConditionsStage::kConditionCount] = {
    "evt.type in (open, openat, openat2, creat, connect, accept, accept4, execve, execveat)",
    "fd.name pmatch (/etc, /usr/lib, /proc/self, /var/run/secrets)",
    "proc.name regex '^(ba|da|z)?sh$'",
    "proc.aname in (sshd, containerd-shim, runc, sudo)",
    "fd.name startswith /tmp/",
};

engine::ThreadTableOptions TableOptions() {
  engine::ThreadTableOptions options;
  options.proc_fallback = false;  // no /proc read inside the measured loop
  return options;
}

}  // namespace

ConditionsStage::ConditionsStage() : table_(TableOptions()), extractor_(registry_, nullptr) {}

absl::StatusOr<std::unique_ptr<ConditionsStage>> ConditionsStage::Make() {
  auto stage = std::unique_ptr<ConditionsStage>(new ConditionsStage());
  for (const char* text : kConditions) {
    absl::StatusOr<engine::filter::ExprPtr> expr = engine::filter::ParseCondition(text);
    if (!expr.ok()) return expr.status();
    absl::StatusOr<engine::filter::FilterProgram::ConditionId> id =
        stage->program_.Add(**expr, stage->registry_);
    if (!id.ok()) return id.status();
    stage->ids_.push_back(*id);
  }
  stage->table_.SeedFromProc();
  return stage;
}

void ConditionsStage::Visit(const engine::RecordView& view) {
  ++num_;
  const kestrel_record_header& h = view.header();
  if (h.type == KESTREL_EVT_GENERIC_SYSCALL) {
    absl::StatusOr<engine::GenericSyscall> sc = engine::DecodeGenericSyscall(view);
    if (!sc.ok()) return;
    table_.ApplyGeneric(h, *sc);
    extractor_.SetEvent(engine::fields::MakeGenericContext(h, *sc, table_, num_, 0));
  } else {
    absl::StatusOr<engine::DecodedEvent> event = engine::DecodedEvent::Decode(view);
    if (!event.ok()) return;
    table_.ApplyEvent(*event);
    extractor_.SetEvent(engine::fields::MakeEventContext(*event, table_, num_, 0));
  }
  program_.BeginEvent(extractor_);
  for (const engine::filter::FilterProgram::ConditionId id : ids_) matches_ += program_.Matches(id);
}

}  // namespace kestrel::bench
