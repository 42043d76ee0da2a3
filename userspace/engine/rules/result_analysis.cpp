#include "engine/rules/result_analysis.h"

#include <charconv>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace kestrel::engine::rules {
namespace {
namespace result_analysis_parts {

using filter::CompareOp;
using filter::Expr;

// What a comparison is for every failed call: always true, always false,
// or it depends on the event.
enum class OnFailure { kTrue, kFalse, kDepends };

std::optional<int64_t> Number(std::string_view text) {
  int64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return v;
}

// A result compared with `n` by `op`, for every result in -4095..-1.
OnFailure NumberOnFailure(CompareOp op, int64_t n) {
  switch (op) {
    case CompareOp::kEq:
      return n >= 0 ? OnFailure::kFalse : OnFailure::kDepends;
    case CompareOp::kNe:
      return n >= 0 ? OnFailure::kTrue : OnFailure::kDepends;
    case CompareOp::kGe:
      return n >= 0 ? OnFailure::kFalse : OnFailure::kDepends;
    case CompareOp::kGt:
      return n >= -1 ? OnFailure::kFalse : OnFailure::kDepends;
    case CompareOp::kLt:
      return n >= 0 ? OnFailure::kTrue : OnFailure::kDepends;
    case CompareOp::kLe:
      return n >= -1 ? OnFailure::kTrue : OnFailure::kDepends;
    default:
      return OnFailure::kDepends;
  }
}

OnFailure ComparisonOnFailure(const filter::Comparison& c) {
  if (!c.field.transformers.empty() || c.field.index || c.modifier != filter::Modifier::kNone) {
    return OnFailure::kDepends;
  }
  const std::string& field = c.field.name;
  if (field != "evt.rawres" && field != "evt.res" && field != "evt.failed") {
    return OnFailure::kDepends;
  }
  std::vector<const filter::Literal*> values;
  if (const auto* lit = std::get_if<filter::Literal>(&c.operand.value)) {
    values.push_back(lit);
  } else if (const auto* list = std::get_if<std::vector<filter::Literal>>(&c.operand.value)) {
    for (const filter::Literal& l : *list) values.push_back(&l);
  }
  if (values.empty()) return OnFailure::kDepends;
  if (c.op == CompareOp::kIn) {
    // False on failure when every member is: `evt.res in (SUCCESS)`.
    for (const filter::Literal* v : values) {
      filter::Comparison one{c.field, CompareOp::kEq, filter::Operand{*v}};
      if (ComparisonOnFailure(one) != OnFailure::kFalse) return OnFailure::kDepends;
    }
    return OnFailure::kFalse;
  }
  if (values.size() != 1) return OnFailure::kDepends;
  const std::string& text = values.front()->text;
  if (field == "evt.failed") {
    if (text != "true" && text != "false") return OnFailure::kDepends;
    const bool equal = c.op == CompareOp::kEq;
    if (!equal && c.op != CompareOp::kNe) return OnFailure::kDepends;
    return (text == "true") == equal ? OnFailure::kTrue : OnFailure::kFalse;
  }
  // evt.res is SUCCESS or an error's name; a number compares as evt.rawres.
  if (field == "evt.res" && text == "SUCCESS") {
    if (c.op == CompareOp::kEq) return OnFailure::kFalse;
    if (c.op == CompareOp::kNe) return OnFailure::kTrue;
    return OnFailure::kDepends;
  }
  const std::optional<int64_t> n = Number(text);
  return n ? NumberOnFailure(c.op, *n) : OnFailure::kDepends;
}

// Whether `e` (its negation when `negated`) is false for every failure.
bool FalseOnFailure(const Expr& e, bool negated) {
  if (const auto* c = std::get_if<filter::Comparison>(&e.node)) {
    const OnFailure v = ComparisonOnFailure(*c);
    return v == (negated ? OnFailure::kTrue : OnFailure::kFalse);
  }
  if (const auto* n = std::get_if<filter::Not>(&e.node))
    return FalseOnFailure(*n->operand, !negated);
  // `a and b` is false when one is; negated it is `not a or not b`.
  if (const auto* a = std::get_if<filter::And>(&e.node)) {
    for (const filter::ExprPtr& child : a->operands) {
      const bool child_false = FalseOnFailure(*child, negated);
      if (!negated && child_false) return true;
      if (negated && !child_false) return false;
    }
    return negated;
  }
  if (const auto* o = std::get_if<filter::Or>(&e.node)) {
    for (const filter::ExprPtr& child : o->operands) {
      const bool child_false = FalseOnFailure(*child, negated);
      if (!negated && !child_false) return false;
      if (negated && child_false) return true;
    }
    return !negated;
  }
  return false;  // an unexpanded macro: anything
}

}  // namespace result_analysis_parts
}  // namespace

bool MatchesOnlySuccess(const filter::Expr& condition) {
  return result_analysis_parts::FalseOnFailure(condition, false);
}

}  // namespace kestrel::engine::rules
