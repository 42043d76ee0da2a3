// Turns a rule's condition text into the syntax tree the filter program
// compiles: macros substituted (macros in macros, cycles reported), list
// names replaced by their items (lists in lists), and exceptions added as
// `and not (...)`.
//
// Substitution copies, so macros that each name the one before twice (or
// lists that do) grow exponentially: a 2 KB file could ask for 2^100 nodes.
// Every condition is therefore held to kMaxConditionTerms terms (operators,
// comparisons and list items) and all of a file's conditions together to
// kMaxRulesetTerms. Chains are held to kMaxExpandedDepth levels (each macro
// named and each operator a level), so that nothing downstream recurses
// deeper; the chains themselves are measured with a stack of their own, each
// macro once, so a hostile file costs time linear in its size. Falco's own
// rules files load well within every limit.
#ifndef KESTREL_ENGINE_RULES_CONDITION_BUILDER_H_
#define KESTREL_ENGINE_RULES_CONDITION_BUILDER_H_

#include <functional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/statusor.h"
#include "engine/filter/ast.h"
#include "engine/rules/definitions.h"

namespace kestrel::engine::rules {

class ConditionBuilder {
 public:
  static constexpr size_t kMaxConditionTerms = 100'000;
  static constexpr size_t kMaxRulesetTerms = 2'000'000;
  static constexpr size_t kMaxExpandedDepth = 1'000;

  // Whether a text names a field (`proc.name`, `proc.aname[2]`).
  using IsField = std::function<bool(std::string_view)>;

  // Parses every macro once; a macro that does not parse is an error
  // reported in `defs` (used or not, as Falco does). With `is_field`, a
  // bare value that names a field is a warning.
  explicit ConditionBuilder(Definitions& defs, IsField is_field = nullptr);

  // The rule's full condition. On error, a diagnostic naming the rule (or
  // the macro at fault) is added to `defs` and the result is null.
  filter::ExprPtr Build(const RuleDef& rule);

  // Once every rule is built: warnings about the macros rules use (evt.dir,
  // values that name fields), the macros no rule uses that name undefined
  // macros, and, when nothing failed, the macros and lists nothing uses.
  void Finish();

  // For describe-rules, once Finish ran: the macros and lists `rule`
  // reaches (sorted) and the macros' and lists' own details, `used` set
  // from `rules` (the loaded rules' details).
  void RuleRefs(const RuleDef& rule, RuleDetails& details) const;
  void DescribeDefinitions(RulesDescription& out);

 private:
  void AddMacroRefs(const filter::Expr& e, absl::flat_hash_set<std::string>& macros,
                    absl::flat_hash_set<std::string>& lists) const;
  void AddListRefs(const filter::Expr& e, absl::flat_hash_set<std::string>& lists) const;
  void AddList(const std::string& name, absl::flat_hash_set<std::string>& lists) const;

  struct Macro {
    filter::ExprPtr parsed;                  // null when it did not parse
    std::vector<std::string> refs;           // the macros `parsed` names
    std::vector<filter::SourcePos> ref_pos;  // where, one per ref
    bool reached = false;                    // substituted into a rule's condition
    enum { kNew, kMeasuring, kMeasured } state = kNew;
    size_t terms = 0;    // once substituted, list items aside
    size_t depth = 0;    // once substituted, itself a level
    absl::Status error;  // why it cannot be substituted, once measured
  };

  // `terms` counts what `e` grows to, and errors past kMaxConditionTerms.
  absl::Status Substitute(filter::Expr& e, size_t& terms);
  absl::StatusOr<const Macro*> Measure(const std::string& name);
  void Size(const filter::Expr& e, size_t& terms, size_t& depth) const;
  absl::Status ExpandOperand(filter::Operand& operand);
  absl::Status ListItems(const std::string& name, std::vector<std::string>& stack,
                         std::vector<filter::Literal>& out);
  absl::StatusOr<filter::ExprPtr> ExceptionExpr(const ExceptionDef& e, size_t& terms);

  // Warnings about the terms of one condition text written at `at`.
  void CheckTerms(const filter::Expr& e, const Place& at, const std::string& item);
  void NoteListRefs(const filter::Expr& e);

  Definitions& defs_;
  IsField is_field_;
  absl::flat_hash_map<std::string, Macro> macros_;
  // Names used by some rule, macro or list (whether defined or not).
  absl::flat_hash_set<std::string> used_macros_, used_lists_;
  size_t ruleset_terms_ = 0;  // of every condition built so far
};

}  // namespace kestrel::engine::rules

#endif  // KESTREL_ENGINE_RULES_CONDITION_BUILDER_H_
