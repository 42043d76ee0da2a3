#include "engine/rules/rule_index.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/string_view.h"
#include "engine/filter/program_inspector.h"

namespace kestrel::engine::rules {
namespace {

using filter::KeyConjunct;
using filter::KeyPredicate;
using Kind = KeyPredicate::Kind;

absl::string_view AbslView(std::string_view s) { return absl::string_view(s.data(), s.size()); }

// The index in `indexes` that `matches`, added (empty) when there is none.
template <typename Index, typename Match>
Index& IndexFor(std::vector<Index>& indexes, Match matches) {
  const auto it = std::find_if(indexes.begin(), indexes.end(), matches);
  if (it != indexes.end()) return *it;
  return indexes.emplace_back();
}

}  // namespace

RuleIndex::RuleIndex(const filter::FilterProgram& program, const std::vector<uint32_t>& rules,
                     const std::vector<filter::FilterProgram::ConditionId>& conditions,
                     std::optional<uint32_t> skip_field) {
  std::vector<std::vector<KeyConjunct>> keys(rules.size());
  // Per (slot, kind): how many distinct values the rules name (a field many
  // rules ask for different values of splits them best), and how many rules
  // name it at all (a value every file-opening rule shares, fd.typechar =
  // 'f', leaves them all candidates together).
  std::map<std::pair<uint32_t, Kind>, absl::flat_hash_set<std::string>> distinct;
  std::map<std::pair<uint32_t, Kind>, size_t> users;
  for (size_t i = 0; i < rules.size(); ++i) {
    keys[i] = filter::ProgramInspector::KeyConjuncts(program, conditions[rules[i]], skip_field);
    std::set<std::pair<uint32_t, Kind>> named;
    for (const KeyConjunct& c : keys[i]) {
      for (const KeyPredicate& p : c.alternatives) {
        distinct[{p.slot, p.kind}].insert(p.values.begin(), p.values.end());
        named.insert({p.slot, p.kind});
      }
    }
    for (const auto& slot_kind : named) ++users[slot_kind];
  }
  // More distinct values first, then fewer rules naming the field, then
  // exact over affix over contains (cheaper lookups, fewer false
  // candidates), then fewer values.
  const auto score = [&](const KeyPredicate& p) {
    const int kind_rank = p.kind == Kind::kEquals ? 2 : p.kind == Kind::kContains ? 0 : 1;
    return std::make_tuple(distinct[{p.slot, p.kind}].size(),
                           -static_cast<int64_t>(users[{p.slot, p.kind}]), kind_rank,
                           -static_cast<int64_t>(p.values.size()));
  };
  // A conjunct of several alternatives is as good as its worst one: any of
  // them meeting the event makes the rule a candidate.
  const auto conjunct_score = [&](const KeyConjunct& c) {
    auto worst = score(c.alternatives.front());
    for (const KeyPredicate& p : c.alternatives) worst = std::min(worst, score(p));
    return worst;
  };
  for (size_t i = 0; i < rules.size(); ++i) {
    const KeyConjunct* best = nullptr;
    for (const KeyConjunct& c : keys[i]) {
      if (best == nullptr || conjunct_score(c) > conjunct_score(*best)) best = &c;
    }
    if (best == nullptr) {
      always_.push_back(rules[i]);
      continue;
    }
    ++keyed_;
    for (const KeyPredicate& p : best->alternatives) File(rules[i], p);
  }
  for (AffixIndex& index : affixes_) std::sort(index.lengths.begin(), index.lengths.end());
  for (ContainsIndex& index : contains_) index.patterns.Build();
}

void RuleIndex::File(uint32_t rule, const KeyPredicate& key) {
  if (key.kind == Kind::kEquals) {
    ExactIndex& index = IndexFor(exact_, [&](const ExactIndex& x) { return x.slot == key.slot; });
    index.slot = key.slot;
    for (const std::string& v : key.values) {
      AddOnce(index.by_value[v], rule);
      index.filter.Add(v);
    }
    return;
  }
  if (key.kind == Kind::kContains) {
    ContainsIndex& index =
        IndexFor(contains_, [&](const ContainsIndex& x) { return x.slot == key.slot; });
    index.slot = key.slot;
    const uint32_t id = index.patterns.Add(key.values.front());
    if (id >= index.by_pattern.size()) index.by_pattern.resize(id + 1);
    AddOnce(index.by_pattern[id], rule);
    return;
  }
  const bool suffix = key.kind == Kind::kSuffix;
  AffixIndex& index = IndexFor(
      affixes_, [&](const AffixIndex& x) { return x.slot == key.slot && x.suffix == suffix; });
  index.slot = key.slot;
  index.suffix = suffix;
  const std::string& pattern = key.values.front();
  AddOnce(index.by_pattern[pattern], rule);
  index.filter.Add(pattern);
  if (std::find(index.lengths.begin(), index.lengths.end(), pattern.size()) ==
      index.lengths.end()) {
    index.lengths.push_back(pattern.size());
  }
}

void RuleIndex::KeyFilter::Add(std::string_view key) {
  lengths_ |= LengthBit(key.size());
  if (key.empty()) return;
  const auto first = static_cast<uint8_t>(key.front());
  const auto last = static_cast<uint8_t>(key.back());
  first_[first >> 6] |= uint64_t{1} << (first & 63);
  last_[last >> 6] |= uint64_t{1} << (last & 63);
}

void RuleIndex::AddOnce(RuleList& list, uint32_t rule) {
  // Rules are filed in ascending order: a repeat can only be the last one.
  if (list.empty() || list.back() != rule) list.push_back(rule);
}

void RuleIndex::Collect(const RuleList& rules) {
  scratch_.insert(scratch_.end(), rules.begin(), rules.end());
}

std::span<const uint32_t> RuleIndex::Candidates(filter::FilterProgram& program) {
  scratch_.clear();
  for (const ExactIndex& index : exact_) {
    const std::string_view* value = filter::ProgramInspector::ReadString(program, index.slot);
    if (!value || !index.filter.MayHold(*value)) continue;
    if (const auto it = index.by_value.find(AbslView(*value)); it != index.by_value.end()) {
      Collect(it->second);
    }
  }
  for (const AffixIndex& index : affixes_) {
    const std::string_view* value = filter::ProgramInspector::ReadString(program, index.slot);
    if (!value) continue;
    for (const size_t length : index.lengths) {
      if (length > value->size()) break;
      const std::string_view part =
          index.suffix ? value->substr(value->size() - length) : value->substr(0, length);
      if (!index.filter.MayHold(part)) continue;
      if (const auto it = index.by_pattern.find(AbslView(part)); it != index.by_pattern.end()) {
        Collect(it->second);
      }
    }
  }
  for (const ContainsIndex& index : contains_) {
    const std::string_view* value = filter::ProgramInspector::ReadString(program, index.slot);
    if (!value) continue;
    index.patterns.Find(*value, seen_, [&](uint32_t id) { Collect(index.by_pattern[id]); });
  }
  if (scratch_.empty()) return always_;
  Collect(always_);
  std::sort(scratch_.begin(), scratch_.end());
  // A rule filed under several alternatives may have met more than one.
  scratch_.erase(std::unique(scratch_.begin(), scratch_.end()), scratch_.end());
  return scratch_;
}

}  // namespace kestrel::engine::rules
