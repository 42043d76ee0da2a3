// Ruleset: matching per event and the enable/priority switches. Loading is
// in loader.cpp.
#include "engine/rules/ruleset.h"

#include <algorithm>
#include <span>

#include "absl/container/flat_hash_map.h"
#include "engine/rules/rule_index.h"

#include "engine/decode/syscall_names.h"

namespace kestrel::engine::rules {

Ruleset::Ruleset() : program_(std::make_unique<filter::FilterProgram>()) {}
Ruleset::~Ruleset() = default;

void Ruleset::SetEnabledByName(std::string_view name, bool on) {
  for (Rule& r : rules_) {
    if (r.name == name) r.enabled = on;
  }
  Reindex();
}

void Ruleset::SetEnabledByTag(std::string_view tag, bool on) {
  for (Rule& r : rules_) {
    if (std::find(r.tags.begin(), r.tags.end(), tag) != r.tags.end()) r.enabled = on;
  }
  Reindex();
}

void Ruleset::SetMinimumPriority(Priority p) {
  minimum_priority_ = p;
  Reindex();
}

// A rule is evaluated when it compiled, is enabled and passes the
// priority threshold.
void Ruleset::Reindex() {
  size_t universe = 0;
  for (const SyscallEntry& e : AllSyscalls()) universe = std::max<size_t>(universe, e.id + 1);
  by_syscall_.assign(universe, {});
  any_syscall_rules_.clear();
  for (uint32_t i = 0; i < rules_.size(); ++i) {
    const Rule& r = rules_[i];
    if (!r.compiled || !r.enabled || !AtLeast(r.priority, minimum_priority_)) continue;
    if (r.any_syscall) {
      any_syscall_rules_.push_back(i);
      for (std::vector<uint32_t>& list : by_syscall_) list.push_back(i);
      continue;
    }
    for (uint32_t nr : r.syscalls) {
      if (nr < by_syscall_.size()) by_syscall_[nr].push_back(i);
    }
  }
  std::vector<filter::FilterProgram::ConditionId> conditions(rules_.size());
  for (size_t i = 0; i < rules_.size(); ++i) conditions[i] = rules_[i].condition;
  absl::flat_hash_map<std::vector<uint32_t>, std::shared_ptr<RuleIndex>> built;
  auto index_of = [&](const std::vector<uint32_t>& list) -> std::shared_ptr<RuleIndex> {
    if (list.empty()) return nullptr;
    std::shared_ptr<RuleIndex>& index = built[list];
    if (!index) index = std::make_shared<RuleIndex>(*program_, list, conditions, evt_type_field_);
    return index;
  };
  index_by_syscall_.clear();
  for (const std::vector<uint32_t>& list : by_syscall_) index_by_syscall_.push_back(index_of(list));
  any_syscall_index_ = index_of(any_syscall_rules_);
  const auto any_late = [this](const std::vector<uint32_t>& list) {
    return std::any_of(list.begin(), list.end(),
                       [this](uint32_t i) { return rules_[i].reads_late_fields; });
  };
  late_by_syscall_.assign(by_syscall_.size(), false);
  for (size_t nr = 0; nr < by_syscall_.size(); ++nr)
    late_by_syscall_[nr] = any_late(by_syscall_[nr]);
  late_any_syscall_ = any_late(any_syscall_rules_);
}

std::vector<std::string> Ruleset::AddressNames() const {
  std::vector<std::string> names;
  for (const Rule& r : rules_) {
    if (!r.compiled || !r.enabled || !AtLeast(r.priority, minimum_priority_)) continue;
    names.insert(names.end(), r.address_names.begin(), r.address_names.end());
  }
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

SyscallNeeds Ruleset::Syscalls() const {
  SyscallNeeds needs;
  for (const Rule& r : rules_) {
    if (!r.compiled || !r.enabled || !AtLeast(r.priority, minimum_priority_)) continue;
    if (r.any_syscall) {
      needs.any = true;
      needs.unconstrained_rules.push_back(r.name);
    }
    needs.syscalls.insert(needs.syscalls.end(), r.syscalls.begin(), r.syscalls.end());
  }
  std::sort(needs.syscalls.begin(), needs.syscalls.end());
  needs.syscalls.erase(std::unique(needs.syscalls.begin(), needs.syscalls.end()),
                       needs.syscalls.end());
  return needs;
}

void Ruleset::Evaluate(uint32_t syscall_nr, filter::FieldReader& reader, bool first_only,
                       absl::FunctionRef<void(const Rule&)> on_match) {
  EvaluateCandidates(syscall_nr, reader, first_only, /*skip_late=*/false, on_match);
}

void Ruleset::EvaluateLate(uint32_t syscall_nr, filter::FieldReader& reader, bool first_only,
                           absl::FunctionRef<void(const Rule&)> on_match,
                           absl::FunctionRef<void(uint32_t)> on_late) {
  if (EvaluateCandidates(syscall_nr, reader, first_only, /*skip_late=*/true, on_match) &&
      first_only) {
    return;
  }
  // Every late-reading candidate, not only those the index would pick: the
  // index's key may be a field that has not arrived.
  for (uint32_t i : CandidatesOf(syscall_nr)) {
    if (rules_[i].reads_late_fields) on_late(i);
  }
}

void Ruleset::Rejudge(std::span<const uint32_t> indexes, filter::FieldReader& reader,
                      absl::FunctionRef<void(const Rule&)> on_match) {
  program_->BeginEvent(reader);
  for (uint32_t i : indexes) {
    if (i < rules_.size() && program_->Matches(rules_[i].condition)) on_match(rules_[i]);
  }
}

bool Ruleset::EvaluateCandidates(uint32_t syscall_nr, filter::FieldReader& reader, bool first_only,
                                 bool skip_late, absl::FunctionRef<void(const Rule&)> on_match) {
  const std::vector<uint32_t>& candidates = CandidatesOf(syscall_nr);
  if (candidates.empty()) return false;
  program_->BeginEvent(reader);
  std::span<const uint32_t> evaluated = candidates;
  if (!rule_by_rule_) {
    RuleIndex& index = syscall_nr < index_by_syscall_.size() ? *index_by_syscall_[syscall_nr]
                                                             : *any_syscall_index_;
    evaluated = index.Candidates(*program_);
  }
  bool matched = false;
  for (uint32_t i : evaluated) {
    const Rule& r = rules_[i];
    if (skip_late && r.reads_late_fields) continue;
    if (!program_->Matches(r.condition)) continue;
    matched = true;
    on_match(r);
    if (first_only) return true;
  }
  return matched;
}

}  // namespace kestrel::engine::rules
