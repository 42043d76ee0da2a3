// The rules one event type can meet, compiled together: per field, one
// hash lookup of the event's value names the rules whose top-level `and`
// asks for that exact value (`=`, `in`), and one lookup per distinct
// pattern length the rules whose `startswith` / `endswith` (or a `glob`'s
// literal start or end) it meets, and one scan of the value for every
// pattern the rules' `contains` look for (substring_set.h). A conjunct
// that is an `or` of such predicates (on one field or several) files its
// rule under each of them. Only those rules, and the rules with no such
// predicate, are evaluated; the lookups read fields through the program's
// per-event cache, so a field is still extracted at most once per event.
#ifndef KESTREL_ENGINE_RULES_RULE_INDEX_H_
#define KESTREL_ENGINE_RULES_RULE_INDEX_H_

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "engine/filter/filter_program.h"
#include "engine/filter/program_inspector.h"
#include "engine/rules/substring_set.h"

namespace kestrel::engine::rules {

class RuleIndex {
 public:
  // `rules` (ascending: load order) with `conditions[r]` the condition of
  // rule r. Predicates on field `skip_field` (evt.type) are not used.
  RuleIndex(const filter::FilterProgram& program, const std::vector<uint32_t>& rules,
            const std::vector<filter::FilterProgram::ConditionId>& conditions,
            std::optional<uint32_t> skip_field);

  // The rules that can hold for the current event (BeginEvent called on
  // `program`), ascending. Valid until the next call.
  std::span<const uint32_t> Candidates(filter::FilterProgram& program);

  // How many rules are only met through a lookup.
  size_t keyed_rules() const { return keyed_; }

 private:
  using RuleList = std::vector<uint32_t>;

  // The lengths and the first and last bytes of a table's keys: a value
  // that misses them is no key, found without hashing it. Most events'
  // values are in no rule's list, and most miss on one of the three.
  class KeyFilter {
   public:
    void Add(std::string_view key);
    bool MayHold(std::string_view value) const {
      if (!(lengths_ & LengthBit(value.size()))) return false;
      if (value.empty()) return true;
      return Has(first_, value.front()) && Has(last_, value.back());
    }

   private:
    using ByteSet = std::array<uint64_t, 4>;
    // Bit n for length n; bit 63 for 63 bytes or more.
    static uint64_t LengthBit(size_t n) { return uint64_t{1} << (n < 63 ? n : 63); }
    static bool Has(const ByteSet& set, char c) {
      const auto b = static_cast<uint8_t>(c);
      return set[b >> 6] >> (b & 63) & 1;
    }
    uint64_t lengths_ = 0;
    ByteSet first_{};
    ByteSet last_{};
  };

  struct ExactIndex {
    uint32_t slot = 0;
    absl::flat_hash_map<std::string, RuleList> by_value;
    KeyFilter filter;  // of by_value's keys
  };
  struct AffixIndex {
    uint32_t slot = 0;
    bool suffix = false;
    std::vector<size_t> lengths;  // distinct pattern lengths, ascending
    absl::flat_hash_map<std::string, RuleList> by_pattern;
    KeyFilter filter;  // of by_pattern's keys
  };

  struct ContainsIndex {
    uint32_t slot = 0;
    SubstringSet patterns;
    std::vector<RuleList> by_pattern;  // by SubstringSet id
  };

  // Files `rule` under `key`'s values in the index of its slot and kind.
  void File(uint32_t rule, const filter::KeyPredicate& key);
  static void AddOnce(RuleList& list, uint32_t rule);
  void Collect(const RuleList& rules);

  RuleList always_;  // rules with no key predicate
  std::vector<ExactIndex> exact_;
  std::vector<AffixIndex> affixes_;
  std::vector<ContainsIndex> contains_;
  std::vector<uint8_t> seen_;  // SubstringSet::Find's scratch
  size_t keyed_ = 0;
  RuleList scratch_;
};

}  // namespace kestrel::engine::rules

#endif  // KESTREL_ENGINE_RULES_RULE_INDEX_H_
