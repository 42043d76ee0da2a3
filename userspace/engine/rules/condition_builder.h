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

#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "engine/filter/ast.h"
#include "engine/rules/definitions.h"

namespace kestrel::engine::rules {

class ConditionBuilder {
 public:
  static constexpr size_t kMaxConditionTerms = 100'000;
  static constexpr size_t kMaxRulesetTerms = 2'000'000;
  static constexpr size_t kMaxExpandedDepth = 1'000;

  // Parses every macro once; a macro that does not parse is an error
  // reported in `defs` (used or not, as Falco does).
  explicit ConditionBuilder(Definitions& defs);

  // The rule's full condition. On error, a diagnostic naming the rule (or
  // the macro at fault) is added to `defs` and the result is null.
  filter::ExprPtr Build(const RuleDef& rule);

 private:
  struct Macro {
    filter::ExprPtr parsed;         // null when it did not parse
    std::vector<std::string> refs;  // the macros `parsed` names
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

  Definitions& defs_;
  absl::flat_hash_map<std::string, Macro> macros_;
  size_t ruleset_terms_ = 0;  // of every condition built so far
};

}  // namespace kestrel::engine::rules

#endif  // KESTREL_ENGINE_RULES_CONDITION_BUILDER_H_
