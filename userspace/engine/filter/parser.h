// Parses a condition written in Falco's filter language into a syntax tree.
//
//   condition  := or
//   or         := and ('or' and)*
//   and        := not ('and' not)*
//   not        := 'not' not | primary
//   primary    := '(' condition ')' | check | MACRO
//   check      := operand-field ( 'exists'
//                               | cmp value
//                               | ('in' | 'intersects' | 'pmatch') (list | LIST_NAME | field-value)
//                               )
//   operand-field := FIELD ['[' ARG ']'] | TRANSFORMER '(' operand-field ')'
//   value      := QUOTED | BARE | field-value
//   field-value := 'val(' FIELD ['[' ARG ']'] ')' | TRANSFORMER '(' operand-field ')'
//   list       := '(' [item (',' item)*] ')'     item := QUOTED | BARE | list
//
// Field names have at least one dot (`proc.name`); a name with none is a
// macro (or, after a list operator, a list), left for the rules loader to
// substitute. Nested lists are flattened in order.
#ifndef KESTREL_ENGINE_FILTER_PARSER_H_
#define KESTREL_ENGINE_FILTER_PARSER_H_

#include <string_view>

#include "absl/status/statusor.h"
#include "engine/filter/ast.h"

namespace kestrel::engine::filter {

// Parses `text`. An error says where (line and column, 1-based), what was
// expected and what was found: "line 1, column 11: expected an operator
// after proc.name (=, !=, <, contains, in, exists ...), found 'sh'".
absl::StatusOr<ExprPtr> ParseCondition(std::string_view text);

// How deep parentheses, `not`s and transformers may nest: a bound on the
// parser's recursion, so no condition can exhaust the stack.
inline constexpr int kMaxConditionDepth = 200;

}  // namespace kestrel::engine::filter

#endif  // KESTREL_ENGINE_FILTER_PARSER_H_
