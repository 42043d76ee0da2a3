#include "engine/rules/rule_index.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/string_view.h"
#include "engine/filter/program_inspector.h"

namespace kestrel::engine::rules {
namespace {

using filter::KeyPredicate;
using Kind = KeyPredicate::Kind;

absl::string_view AbslView(std::string_view s) { return absl::string_view(s.data(), s.size()); }

}  // namespace

RuleIndex::RuleIndex(const filter::FilterProgram& program, const std::vector<uint32_t>& rules,
                     const std::vector<filter::FilterProgram::ConditionId>& conditions,
                     std::optional<uint32_t> skip_field) {
  std::vector<std::vector<KeyPredicate>> preds(rules.size());
  // How many distinct values the rules name per (slot, kind): a field many
  // rules ask for different values of splits them best.
  std::map<std::pair<uint32_t, Kind>, absl::flat_hash_set<std::string>> distinct;
  for (size_t i = 0; i < rules.size(); ++i) {
    preds[i] = filter::ProgramInspector::KeyPredicates(program, conditions[rules[i]], skip_field);
    for (const KeyPredicate& p : preds[i]) {
      distinct[{p.slot, p.kind}].insert(p.values.begin(), p.values.end());
    }
  }
  std::map<uint32_t, size_t> exact_at;
  std::map<std::pair<uint32_t, bool>, size_t> affix_at;
  std::map<uint32_t, size_t> contains_at;
  for (size_t i = 0; i < rules.size(); ++i) {
    const KeyPredicate* best = nullptr;
    auto score = [&](const KeyPredicate& p) {
      // More distinct values first, then exact over affix over contains
      // (cheaper lookups, fewer false candidates), then fewer values.
      const int kind_rank = p.kind == Kind::kEquals ? 2 : p.kind == Kind::kContains ? 0 : 1;
      return std::make_tuple(distinct[{p.slot, p.kind}].size(), kind_rank,
                             -static_cast<int64_t>(p.values.size()));
    };
    for (const KeyPredicate& p : preds[i]) {
      if (best == nullptr || score(p) > score(*best)) best = &p;
    }
    const uint32_t rule = rules[i];
    if (best == nullptr) {
      always_.push_back(rule);
      continue;
    }
    ++keyed_;
    if (best->kind == Kind::kEquals) {
      auto [it, added] = exact_at.try_emplace(best->slot, exact_.size());
      if (added) {
        exact_.emplace_back();
        exact_.back().slot = best->slot;
      }
      for (const std::string& v : best->values) exact_[it->second].by_value[v].push_back(rule);
      continue;
    }
    if (best->kind == Kind::kContains) {
      auto [it, added] = contains_at.try_emplace(best->slot, contains_.size());
      if (added) {
        contains_.emplace_back();
        contains_.back().slot = best->slot;
      }
      ContainsIndex& index = contains_[it->second];
      const uint32_t id = index.patterns.Add(best->values.front());
      if (id >= index.by_pattern.size()) index.by_pattern.resize(id + 1);
      index.by_pattern[id].push_back(rule);
      continue;
    }
    const bool suffix = best->kind == Kind::kSuffix;
    auto [it, added] = affix_at.try_emplace({best->slot, suffix}, affixes_.size());
    if (added) {
      affixes_.emplace_back();
      affixes_.back().slot = best->slot;
      affixes_.back().suffix = suffix;
    }
    AffixIndex& index = affixes_[it->second];
    const std::string& pattern = best->values.front();
    index.by_pattern[pattern].push_back(rule);
    if (std::find(index.lengths.begin(), index.lengths.end(), pattern.size()) ==
        index.lengths.end()) {
      index.lengths.push_back(pattern.size());
    }
  }
  for (AffixIndex& index : affixes_) std::sort(index.lengths.begin(), index.lengths.end());
  for (ContainsIndex& index : contains_) index.patterns.Build();
}

void RuleIndex::Collect(const RuleList& rules) {
  scratch_.insert(scratch_.end(), rules.begin(), rules.end());
}

std::span<const uint32_t> RuleIndex::Candidates(filter::FilterProgram& program) {
  scratch_.clear();
  for (const ExactIndex& index : exact_) {
    const std::optional<std::string_view> value =
        filter::ProgramInspector::ReadString(program, index.slot);
    if (!value) continue;
    if (const auto it = index.by_value.find(AbslView(*value)); it != index.by_value.end()) {
      Collect(it->second);
    }
  }
  for (const AffixIndex& index : affixes_) {
    const std::optional<std::string_view> value =
        filter::ProgramInspector::ReadString(program, index.slot);
    if (!value) continue;
    for (const size_t length : index.lengths) {
      if (length > value->size()) break;
      const std::string_view part =
          index.suffix ? value->substr(value->size() - length) : value->substr(0, length);
      if (const auto it = index.by_pattern.find(AbslView(part)); it != index.by_pattern.end()) {
        Collect(it->second);
      }
    }
  }
  for (const ContainsIndex& index : contains_) {
    const std::optional<std::string_view> value =
        filter::ProgramInspector::ReadString(program, index.slot);
    if (!value) continue;
    index.patterns.Find(*value, seen_, [&](uint32_t id) { Collect(index.by_pattern[id]); });
  }
  if (scratch_.empty()) return always_;
  Collect(always_);
  std::sort(scratch_.begin(), scratch_.end());
  return scratch_;
}

}  // namespace kestrel::engine::rules
