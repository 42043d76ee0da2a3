#include "engine/rules/syscall_analysis.h"

#include <algorithm>
#include <optional>

#include "absl/strings/numbers.h"

#include "engine/decode/syscall_names.h"

namespace kestrel::engine::rules {
namespace {

using filter::CompareOp;
using filter::Expr;

// One bit per syscall number up to the highest known one.
using Bits = std::vector<bool>;

size_t Universe() {
  const auto& all = AllSyscalls();
  return all.empty() ? 0 : all.back().id + 1;
}

Bits All() {
  Bits b(Universe(), false);
  for (const SyscallEntry& e : AllSyscalls()) b[e.id] = true;
  return b;
}

Bits None() { return Bits(Universe(), false); }

Bits Complement(const Bits& b) {
  Bits out = All();
  for (size_t i = 0; i < b.size(); ++i) {
    if (b[i]) out[i] = false;
  }
  return out;
}

Bits Named(const std::vector<std::string>& names) {
  Bits b = None();
  for (const std::string& n : names) {
    if (std::optional<uint32_t> id = SyscallId(n); id && *id < b.size()) b[*id] = true;
  }
  return b;
}

// What `c` (on evt.num, which counts from 1) is whatever the event: false
// for `= 0`, `< 1`, `<= 0`, `in (0)`; true for `!= 0`, `> 0`, `>= 1`.
std::optional<bool> EvtNumFold(const filter::Comparison& c) {
  if (c.field.name != "evt.num" || c.field.index || !c.field.transformers.empty()) {
    return std::nullopt;
  }
  uint64_t n = 0;
  if (c.op == CompareOp::kIn) {
    const auto* items = std::get_if<std::vector<filter::Literal>>(&c.operand.value);
    if (items == nullptr) return std::nullopt;
    for (const filter::Literal& l : *items) {
      if (!absl::SimpleAtoi(l.text, &n) || n != 0) return std::nullopt;
    }
    return false;
  }
  const auto* lit = std::get_if<filter::Literal>(&c.operand.value);
  if (lit == nullptr || !absl::SimpleAtoi(lit->text, &n)) return std::nullopt;
  switch (c.op) {
    case CompareOp::kEq:
      return n == 0 ? std::optional<bool>(false) : std::nullopt;
    case CompareOp::kNe:
      return n == 0 ? std::optional<bool>(true) : std::nullopt;
    case CompareOp::kLt:
      return n <= 1 ? std::optional<bool>(false) : std::nullopt;
    case CompareOp::kLe:
      return n == 0 ? std::optional<bool>(false) : std::nullopt;
    case CompareOp::kGt:
      return n == 0 ? std::optional<bool>(true) : std::nullopt;
    case CompareOp::kGe:
      return n <= 1 ? std::optional<bool>(true) : std::nullopt;
    default:
      return std::nullopt;
  }
}

// The set of syscalls for which `e` can be true (negated: can be false).
Bits Analyze(const Expr& e, bool negated, bool fold_evt_num) {
  if (const auto* c = std::get_if<filter::Comparison>(&e.node)) {
    if (fold_evt_num) {
      if (const std::optional<bool> holds = EvtNumFold(*c)) {
        return *holds != negated ? All() : None();
      }
    }
    if (!c->field.transformers.empty() || c->field.index) return All();
    if (c->field.name == "evt.dir") {
      // Kestrel's events are all exits: `evt.dir = >` never holds.
      const auto* lit = std::get_if<filter::Literal>(&c->operand.value);
      if (lit == nullptr || (c->op != CompareOp::kEq && c->op != CompareOp::kNe)) return All();
      const bool holds = (lit->text == "<") == (c->op == CompareOp::kEq);
      return holds != negated ? All() : None();
    }
    if (c->field.name != "evt.type") return All();
    std::vector<std::string> names;
    bool equal = true;
    using filter::Modifier;
    const bool any_equal = c->modifier == Modifier::kAnyOf && c->op == CompareOp::kEq;
    const bool all_differ = c->modifier == Modifier::kAllOf && c->op == CompareOp::kNe;
    if (any_equal || all_differ) {
      // `= anyof (a, b)` is `in (a, b)`; `!= allof (a, b)` its negation.
      const auto* items = std::get_if<std::vector<filter::Literal>>(&c->operand.value);
      if (items == nullptr) return All();
      for (const filter::Literal& l : *items) names.push_back(l.text);
      equal = any_equal;
    } else if (c->modifier != Modifier::kNone) {
      return All();
    } else if (c->op == CompareOp::kEq || c->op == CompareOp::kNe) {
      const auto* lit = std::get_if<filter::Literal>(&c->operand.value);
      if (lit == nullptr) return All();
      names.push_back(lit->text);
      equal = c->op == CompareOp::kEq;
    } else if (c->op == CompareOp::kIn) {
      const auto* items = std::get_if<std::vector<filter::Literal>>(&c->operand.value);
      if (items == nullptr) return All();
      for (const filter::Literal& l : *items) names.push_back(l.text);
    } else {
      return All();
    }
    const Bits named = Named(names);
    return equal != negated ? named : Complement(named);
  }
  if (const auto* n = std::get_if<filter::Not>(&e.node)) {
    return Analyze(*n->operand, !negated, fold_evt_num);
  }
  if (std::holds_alternative<filter::MacroRef>(e.node)) return All();
  // De Morgan: a negated `and` is an `or` of negations, and back.
  const bool is_and = std::holds_alternative<filter::And>(e.node);
  const std::vector<filter::ExprPtr>& operands =
      is_and ? std::get<filter::And>(e.node).operands : std::get<filter::Or>(e.node).operands;
  const bool intersect = is_and != negated;
  Bits out = intersect ? All() : None();
  for (const filter::ExprPtr& operand : operands) {
    const Bits b = Analyze(*operand, negated, fold_evt_num);
    for (size_t i = 0; i < out.size(); ++i)
      out[i] = intersect ? (out[i] && b[i]) : (out[i] || b[i]);
  }
  return out;
}

}  // namespace

SyscallSet AnalyzeSyscalls(const Expr& condition, bool fold_evt_num) {
  const Bits bits = Analyze(condition, false, fold_evt_num);
  SyscallSet out;
  if (bits == All()) {
    out.any = true;
    return out;
  }
  for (size_t i = 0; i < bits.size(); ++i) {
    if (bits[i]) out.syscalls.push_back(static_cast<uint32_t>(i));
  }
  return out;
}

}  // namespace kestrel::engine::rules
