// Turns a rule's condition text into the syntax tree the filter program
// compiles: macros substituted (macros in macros, cycles reported), list
// names replaced by their items (lists in lists), and exceptions added as
// `and not (...)`.
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
  // Parses every macro once; a macro that does not parse is an error
  // reported in `defs` (used or not, as Falco does).
  explicit ConditionBuilder(Definitions& defs);

  // The rule's full condition. On error, a diagnostic naming the rule (or
  // the macro at fault) is added to `defs` and the result is null.
  filter::ExprPtr Build(const RuleDef& rule);

 private:
  struct Macro {
    filter::ExprPtr parsed;    // null when it did not parse
    filter::ExprPtr expanded;  // macros and lists substituted, once
    bool expanding = false;
  };

  absl::Status Substitute(filter::Expr& e, std::vector<std::string>& stack);
  absl::StatusOr<const filter::Expr*> ExpandMacro(const std::string& name,
                                                  std::vector<std::string>& stack);
  absl::Status ExpandOperand(filter::Operand& operand);
  absl::Status ListItems(const std::string& name, std::vector<std::string>& stack,
                         std::vector<filter::Literal>& out);
  absl::StatusOr<filter::ExprPtr> ExceptionExpr(const ExceptionDef& e);

  Definitions& defs_;
  absl::flat_hash_map<std::string, Macro> macros_;
};

}  // namespace kestrel::engine::rules

#endif  // KESTREL_ENGINE_RULES_CONDITION_BUILDER_H_
