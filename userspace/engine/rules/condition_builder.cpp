#include "engine/rules/condition_builder.h"

#include <algorithm>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/strip.h"
#include "engine/filter/parser.h"
#include "engine/filter/scanner.h"

namespace kestrel::engine::rules {
namespace {

using filter::Expr;
using filter::ExprPtr;
using filter::Sv;

// A parse error's "line L, column C: what" mapped into the file.
void ReportParseError(Definitions& defs, const Place& value, std::string item,
                      const absl::Status& status) {
  absl::string_view msg = status.message();
  uint32_t line = 0;
  uint32_t column = 0;
  absl::string_view rest = msg;
  if (absl::ConsumePrefix(&rest, "line ")) {
    const size_t comma = rest.find(", column ");
    const size_t colon = rest.find(": ");
    if (comma != absl::string_view::npos && colon != absl::string_view::npos && comma < colon &&
        absl::SimpleAtoi(rest.substr(0, comma), &line) &&
        absl::SimpleAtoi(rest.substr(comma + 9, colon - comma - 9), &column)) {
      const Place at = Within(value, line, column);
      const std::string where =
          at.verbatim ? "" : absl::StrCat("condition line ", line, ", column ", column, ": ");
      defs.Error(at, std::move(item),
                 absl::StrCat("condition does not parse: ", where, rest.substr(colon + 2)));
      return;
    }
  }
  defs.Error(value, std::move(item), absl::StrCat("condition does not parse: ", msg));
}

ExprPtr MakeExpr(decltype(Expr::node) node) {
  auto e = std::make_unique<Expr>();
  e->node = std::move(node);
  return e;
}

filter::Literal LiteralOf(const ListItem& item) { return {item.text, item.quoted, {}}; }

absl::Status TooLarge(absl::string_view what, size_t limit) {
  return absl::InvalidArgumentError(absl::StrCat(what, " expands to more than ", limit,
                                                 " terms (macros or lists that name each other)"));
}

// The names of the macros `e` names, in order, and where (the parser
// bounds its depth).
void CollectMacroRefs(const Expr& e, std::vector<std::string>& out,
                      std::vector<filter::SourcePos>& pos) {
  if (const auto* m = std::get_if<filter::MacroRef>(&e.node)) {
    out.push_back(m->name);
    pos.push_back(e.pos);
  } else if (const auto* n = std::get_if<filter::Not>(&e.node)) {
    CollectMacroRefs(*n->operand, out, pos);
  } else if (!std::holds_alternative<filter::Comparison>(e.node)) {
    const std::vector<ExprPtr>& operands = std::holds_alternative<filter::And>(e.node)
                                               ? std::get<filter::And>(e.node).operands
                                               : std::get<filter::Or>(e.node).operands;
    for (const ExprPtr& operand : operands) CollectMacroRefs(*operand, out, pos);
  }
}

// Calls `visit` with each comparison of `e` (macros not substituted).
void VisitComparisons(const Expr& e, const std::function<void(const filter::Comparison&)>& visit) {
  if (const auto* c = std::get_if<filter::Comparison>(&e.node)) {
    visit(*c);
  } else if (const auto* n = std::get_if<filter::Not>(&e.node)) {
    VisitComparisons(*n->operand, visit);
  } else if (!std::holds_alternative<filter::MacroRef>(e.node)) {
    const std::vector<ExprPtr>& operands = std::holds_alternative<filter::And>(e.node)
                                               ? std::get<filter::And>(e.node).operands
                                               : std::get<filter::Or>(e.node).operands;
    for (const ExprPtr& operand : operands) VisitComparisons(*operand, visit);
  }
}

constexpr char kEvtDir[] = "evt.dir";
constexpr char kEvtDirWarning[] =
    "evt.dir is deprecated: every event is an exit event, so 'evt.dir = <' always holds and "
    "'evt.dir = >' never does; drop the comparison";

std::string FieldValueWarning(std::string_view value, bool in_exception) {
  const absl::string_view text = Sv(value);
  return in_exception
             ? absl::StrCat("value '", text,
                            "' names a field but an exception value is text; quote it ('\"", text,
                            "\"') to say the text is meant")
             : absl::StrCat("value '", text, "' names a field but is compared as text: write val(",
                            text,
                            ") to compare with the field, or quote it to say the text is meant");
}

}  // namespace

ConditionBuilder::ConditionBuilder(Definitions& defs, IsField is_field)
    : defs_(defs), is_field_(std::move(is_field)) {
  for (const MacroDef& m : defs.macros) {
    Macro& macro = macros_[m.name];
    absl::StatusOr<ExprPtr> parsed = filter::ParseCondition(m.condition);
    if (!parsed.ok()) {
      ReportParseError(defs_, m.condition_place, absl::StrCat("macro '", m.name, "'"),
                       parsed.status());
      continue;
    }
    macro.parsed = *std::move(parsed);
    CollectMacroRefs(*macro.parsed, macro.refs, macro.ref_pos);
    used_macros_.insert(macro.refs.begin(), macro.refs.end());
    NoteListRefs(*macro.parsed);
  }
}

// Every word that can stand for a list counts as naming it, as Falco
// counts the names it substitutes.
void ConditionBuilder::NoteListRefs(const Expr& e) {
  VisitComparisons(e, [&](const filter::Comparison& c) {
    if (const auto* ref = std::get_if<filter::ListRef>(&c.operand.value)) {
      used_lists_.insert(ref->name);
    } else if (const auto* one = std::get_if<filter::Literal>(&c.operand.value)) {
      if (!one->quoted) used_lists_.insert(one->text);
    } else if (const auto* items = std::get_if<std::vector<filter::Literal>>(&c.operand.value)) {
      for (const filter::Literal& l : *items) {
        if (!l.quoted) used_lists_.insert(l.text);
      }
    }
  });
}

void ConditionBuilder::CheckTerms(const Expr& e, const Place& at, const std::string& item) {
  bool dir_named = false;
  VisitComparisons(e, [&](const filter::Comparison& c) {
    const auto* other = std::get_if<filter::FieldRef>(&c.operand.value);
    for (const filter::FieldRef* f : {&c.field, other}) {
      if (f == nullptr || f->name != kEvtDir || dir_named) continue;
      dir_named = true;
      defs_.Warn(Within(at, f->pos.line, f->pos.column), item, kEvtDirWarning);
    }
    if (!is_field_) return;
    auto check = [&](const filter::Literal& l) {
      if (l.quoted || defs_.list_index.contains(l.text) || !is_field_(l.text)) return;
      defs_.Warn(Within(at, l.pos.line, l.pos.column), item, FieldValueWarning(l.text, false));
    };
    if (const auto* one = std::get_if<filter::Literal>(&c.operand.value)) check(*one);
    if (const auto* items = std::get_if<std::vector<filter::Literal>>(&c.operand.value)) {
      for (const filter::Literal& l : *items) check(l);
    }
  });
}

void ConditionBuilder::Finish() {
  for (const MacroDef& def : defs_.macros) {
    const Macro& m = macros_.at(def.name);
    if (!m.parsed) continue;
    const std::string item = absl::StrCat("macro '", def.name, "'");
    if (m.reached) {
      CheckTerms(*m.parsed, def.condition_place, item);
      continue;
    }
    // A macro no rule uses is not compiled, so what it names is not
    // checked: a name that is not defined yet is only a warning.
    for (size_t i = 0; i < m.refs.size(); ++i) {
      if (macros_.contains(m.refs[i])) continue;
      defs_.Warn(Within(def.condition_place, m.ref_pos[i].line, m.ref_pos[i].column), item,
                 absl::StrCat("macro '", m.refs[i],
                              "' is not defined (an error once a rule uses this macro)"));
    }
  }
  if (defs_.has_error()) return;
  for (const MacroDef& def : defs_.macros) {
    if (used_macros_.contains(def.name)) continue;
    defs_.Warn(def.place, absl::StrCat("macro '", def.name, "'"),
               "unused: no rule or macro names it");
  }
  for (const ListDef& list : defs_.lists) {
    for (const ListItem& i : list.items) {
      if (!i.quoted) used_lists_.insert(i.text);
    }
  }
  for (const ListDef& list : defs_.lists) {
    if (used_lists_.contains(list.name)) continue;
    defs_.Warn(list.place, absl::StrCat("list '", list.name, "'"),
               "unused: no rule, macro or list names it");
  }
}

absl::Status ConditionBuilder::ListItems(const std::string& name, std::vector<std::string>& stack,
                                         std::vector<filter::Literal>& out) {
  if (std::find(stack.begin(), stack.end(), name) != stack.end()) {
    stack.push_back(name);
    return absl::InvalidArgumentError(
        absl::StrCat("list '", name, "' contains itself: ", absl::StrJoin(stack, " -> ")));
  }
  if (stack.size() >= kMaxExpandedDepth) {
    return absl::InvalidArgumentError(absl::StrCat(
        "list '", stack.front(), "' nests lists deeper than ", kMaxExpandedDepth, " levels"));
  }
  const ListDef& list = defs_.lists[defs_.list_index.at(name)];
  stack.push_back(name);
  for (const ListItem& item : list.items) {
    if (!item.quoted && defs_.list_index.contains(item.text)) {
      if (absl::Status s = ListItems(item.text, stack, out); !s.ok()) return s;
    } else {
      out.push_back(LiteralOf(item));
    }
    if (out.size() > kMaxConditionTerms) {
      return TooLarge(absl::StrCat("list '", name, "'"), kMaxConditionTerms);
    }
  }
  stack.pop_back();
  return absl::OkStatus();
}

// `in (a, shell_binaries)` and `in shell_binaries`: list names become their
// items, as Falco substitutes them.
absl::Status ConditionBuilder::ExpandOperand(filter::Operand& operand) {
  if (auto* ref = std::get_if<filter::ListRef>(&operand.value)) {
    if (!defs_.list_index.contains(ref->name)) {
      return absl::InvalidArgumentError(absl::StrCat("list '", ref->name, "' is not defined"));
    }
    std::vector<filter::Literal> items;
    std::vector<std::string> stack;
    if (absl::Status s = ListItems(ref->name, stack, items); !s.ok()) return s;
    operand.value = std::move(items);
    return absl::OkStatus();
  }
  auto* items = std::get_if<std::vector<filter::Literal>>(&operand.value);
  if (items == nullptr) return absl::OkStatus();
  const bool any_list = std::any_of(items->begin(), items->end(), [&](const filter::Literal& l) {
    return !l.quoted && defs_.list_index.contains(l.text);
  });
  if (!any_list) return absl::OkStatus();
  std::vector<filter::Literal> out;
  for (filter::Literal& l : *items) {
    if (!l.quoted && defs_.list_index.contains(l.text)) {
      std::vector<std::string> stack;
      if (absl::Status s = ListItems(l.text, stack, out); !s.ok()) return s;
    } else {
      out.push_back(std::move(l));
    }
  }
  *items = std::move(out);
  return absl::OkStatus();
}

// Terms and depth of `e` once substituted, the macros it names measured.
// List items are counted when substituted (Substitute), not here.
void ConditionBuilder::Size(const Expr& e, size_t& terms, size_t& depth) const {
  if (const auto* m = std::get_if<filter::MacroRef>(&e.node)) {
    const Macro& macro = macros_.at(m->name);
    terms = std::min(terms + macro.terms, kMaxConditionTerms + 1);
    depth = macro.depth;
    return;
  }
  ++terms;
  depth = 1;
  if (const auto* n = std::get_if<filter::Not>(&e.node)) {
    size_t below = 0;
    Size(*n->operand, terms, below);
    depth += below;
  } else if (!std::holds_alternative<filter::Comparison>(e.node)) {
    const std::vector<ExprPtr>& operands = std::holds_alternative<filter::And>(e.node)
                                               ? std::get<filter::And>(e.node).operands
                                               : std::get<filter::Or>(e.node).operands;
    size_t deepest = 0;
    for (const ExprPtr& operand : operands) {
      size_t below = 0;
      Size(*operand, terms, below);
      deepest = std::max(deepest, below);
    }
    depth += deepest;
  }
}

// Depth first over the macros `name` reaches, with a stack of its own: a
// chain of 15,000 macros must not take 15,000 frames. Each macro is measured
// once, its result (or its error) kept, so the work is linear in the file.
absl::StatusOr<const ConditionBuilder::Macro*> ConditionBuilder::Measure(const std::string& name) {
  struct Frame {
    Macro* macro;
    std::string name;
    size_t next_ref = 0;
  };
  std::vector<Frame> path;
  absl::Status failed;
  // Pushes `n`, or says why it cannot be: measured already, failed, or a cycle.
  auto enter = [&](const std::string& n) -> absl::Status {
    auto it = macros_.find(n);
    if (it == macros_.end()) {
      return absl::InvalidArgumentError(absl::StrCat("macro '", n, "' is not defined"));
    }
    Macro& m = it->second;
    m.reached = true;
    if (m.state == Macro::kMeasured) return m.error;
    if (!m.parsed)
      return absl::InvalidArgumentError(absl::StrCat("macro '", n, "' does not parse"));
    if (m.state == Macro::kMeasuring) {
      std::vector<std::string> cycle;
      for (const Frame& f : path) cycle.push_back(f.name);
      cycle.push_back(n);
      return absl::InvalidArgumentError(
          absl::StrCat("macro '", n, "' uses itself: ", absl::StrJoin(cycle, " -> ")));
    }
    m.state = Macro::kMeasuring;
    path.push_back({&m, n});
    return absl::OkStatus();
  };
  failed = enter(name);
  while (failed.ok() && !path.empty()) {
    Frame& top = path.back();
    if (top.next_ref < top.macro->refs.size()) {
      failed = enter(top.macro->refs[top.next_ref++]);
      continue;
    }
    Macro& m = *top.macro;
    size_t terms = 0;
    size_t depth = 0;
    Size(*m.parsed, terms, depth);
    m.terms = terms;
    m.depth = depth + 1;  // the macro itself is a level: chains of names count
    m.state = Macro::kMeasured;
    if (m.depth > kMaxExpandedDepth) {
      m.error = absl::InvalidArgumentError(
          absl::StrCat("macro '", top.name, "' nests deeper than ", kMaxExpandedDepth,
                       " levels (macros in macros and operators in operators)"));
      failed = m.error;
    }
    path.pop_back();
  }
  // Every macro still on the path depends on the failure: it is theirs too.
  for (Frame& f : path) {
    f.macro->state = Macro::kMeasured;
    f.macro->error = failed;
  }
  if (!failed.ok()) return failed;
  return &macros_.at(name);
}

absl::Status ConditionBuilder::Substitute(Expr& e, size_t& terms) {
  if (auto* m = std::get_if<filter::MacroRef>(&e.node)) {
    absl::StatusOr<const Macro*> macro = Measure(m->name);
    if (!macro.ok()) return macro.status();
    // Checked before the copy is made: the copy is what would not fit.
    if (terms + (*macro)->terms > kMaxConditionTerms) {
      return TooLarge(absl::StrCat("macro '", m->name, "'"), kMaxConditionTerms);
    }
    // Measured, so the recursion below is at most kMaxExpandedDepth deep.
    ExprPtr copy = filter::Clone(*(*macro)->parsed);
    if (absl::Status s = Substitute(*copy, terms); !s.ok()) return s;
    e.node = std::move(copy->node);
    return absl::OkStatus();
  }
  ++terms;
  if (auto* c = std::get_if<filter::Comparison>(&e.node)) {
    if (absl::Status s = ExpandOperand(c->operand); !s.ok()) return s;
    if (const auto* items = std::get_if<std::vector<filter::Literal>>(&c->operand.value)) {
      terms += items->size();
    }
  } else if (auto* n = std::get_if<filter::Not>(&e.node)) {
    return Substitute(*n->operand, terms);
  } else {
    std::vector<ExprPtr>& operands = std::holds_alternative<filter::And>(e.node)
                                         ? std::get<filter::And>(e.node).operands
                                         : std::get<filter::Or>(e.node).operands;
    for (ExprPtr& operand : operands) {
      if (absl::Status s = Substitute(*operand, terms); !s.ok()) return s;
    }
  }
  if (terms > kMaxConditionTerms) return TooLarge("the condition", kMaxConditionTerms);
  return absl::OkStatus();
}

// One exception as Falco writes it: each value tuple is `f1 c1 v1 and f2
// c2 v2 ...`, the tuples or-ed; a list comparison (in, pmatch,
// intersects) takes a list of values or a list name.
absl::StatusOr<ExprPtr> ConditionBuilder::ExceptionExpr(const ExceptionDef& e, size_t& terms) {
  std::vector<filter::FieldRef> fields;
  std::vector<filter::CompareOp> ops;
  std::vector<filter::Modifier> modifiers;  // `startswith oneof` takes a list
  for (size_t i = 0; i < e.fields.size(); ++i) {
    // The parser reads the field and the operator, as a condition would.
    absl::StatusOr<ExprPtr> probe =
        filter::ParseCondition(absl::StrCat(e.fields[i], " ", e.comps[i], " (x)"));
    if (!probe.ok() || !std::holds_alternative<filter::Comparison>((*probe)->node)) {
      probe = filter::ParseCondition(absl::StrCat(e.fields[i], " ", e.comps[i], " x"));
    }
    if (!probe.ok() || !std::holds_alternative<filter::Comparison>((*probe)->node)) {
      return absl::InvalidArgumentError(absl::StrCat("field '", e.fields[i], "' with comp '",
                                                     e.comps[i], "' is not a comparison"));
    }
    const auto& c = std::get<filter::Comparison>((*probe)->node);
    fields.push_back(c.field);
    ops.push_back(c.op);
    modifiers.push_back(c.modifier);
  }
  filter::Or any;
  for (const std::vector<ExceptionValue>& row : e.values) {
    filter::And all;
    for (size_t i = 0; i < row.size(); ++i) {
      filter::Comparison c{fields[i], ops[i], {}, modifiers[i]};
      const ExceptionValue& v = row[i];
      if (filter::TakesList(ops[i]) || modifiers[i] != filter::Modifier::kNone) {
        std::vector<filter::Literal> items;
        for (const ListItem& item : v.items) items.push_back(LiteralOf(item));
        c.operand.value = std::move(items);
        if (absl::Status s = ExpandOperand(c.operand); !s.ok()) return s;
        terms += std::get<std::vector<filter::Literal>>(c.operand.value).size();
        if (terms > kMaxConditionTerms) return TooLarge("the exceptions", kMaxConditionTerms);
      } else if (v.is_list || v.items.size() != 1) {
        return absl::InvalidArgumentError(
            absl::StrCat("comp '", e.comps[i], "' takes one value, not a list"));
      } else {
        c.operand.value = filter::Literal{v.items[0].text, true, {}};
      }
      all.operands.push_back(MakeExpr(std::move(c)));
    }
    if (all.operands.size() == 1) {
      any.operands.push_back(std::move(all.operands[0]));
    } else {
      any.operands.push_back(MakeExpr(std::move(all)));
    }
  }
  if (any.operands.empty()) return ExprPtr();
  if (any.operands.size() == 1) return std::move(any.operands[0]);
  return MakeExpr(std::move(any));
}

ExprPtr ConditionBuilder::Build(const RuleDef& rule) {
  const std::string item = absl::StrCat("rule '", rule.rule.name, "'");
  absl::StatusOr<ExprPtr> parsed = filter::ParseCondition(rule.condition);
  if (!parsed.ok()) {
    ReportParseError(defs_, rule.condition_place, item, parsed.status());
    return nullptr;
  }
  ExprPtr cond = *std::move(parsed);
  {
    std::vector<std::string> refs;
    std::vector<filter::SourcePos> pos;
    CollectMacroRefs(*cond, refs, pos);
    used_macros_.insert(refs.begin(), refs.end());
    NoteListRefs(*cond);
    CheckTerms(*cond, rule.condition_place, item);
  }
  for (const ExceptionDef& e : rule.exceptions) {
    const std::string what = absl::StrCat(item, " exception '", e.name, "'");
    if (std::find(e.fields.begin(), e.fields.end(), kEvtDir) != e.fields.end()) {
      defs_.Warn(e.place, what, kEvtDirWarning);
    }
    for (const std::vector<ExceptionValue>& row : e.values) {
      for (const ExceptionValue& v : row) {
        for (const ListItem& i : v.items) {
          if (i.quoted) continue;
          used_lists_.insert(i.text);
          if (is_field_ && !defs_.list_index.contains(i.text) && is_field_(i.text)) {
            defs_.Warn(v.place, what, FieldValueWarning(i.text, true));
          }
        }
      }
    }
  }
  size_t terms = 0;
  if (absl::Status s = Substitute(*cond, terms); !s.ok()) {
    defs_.Error(rule.condition_place, item, std::string(s.message()));
    return nullptr;
  }
  filter::Or excepted;
  for (const ExceptionDef& e : rule.exceptions) {
    absl::StatusOr<ExprPtr> ex = ExceptionExpr(e, terms);
    if (!ex.ok()) {
      defs_.Error(e.place, absl::StrCat(item, " exception '", e.name, "'"),
                  std::string(ex.status().message()));
      return nullptr;
    }
    if (*ex) excepted.operands.push_back(*std::move(ex));
  }
  ruleset_terms_ += terms;
  if (ruleset_terms_ > kMaxRulesetTerms) {
    defs_.Error(
        rule.condition_place, item,
        std::string(TooLarge("the rules' conditions together", kMaxRulesetTerms).message()));
    return nullptr;
  }
  if (excepted.operands.empty()) return cond;
  ExprPtr none = excepted.operands.size() == 1 ? std::move(excepted.operands[0])
                                               : MakeExpr(std::move(excepted));
  filter::And both;
  both.operands.push_back(std::move(cond));
  both.operands.push_back(MakeExpr(filter::Not{std::move(none)}));
  return MakeExpr(std::move(both));
}

// Describe-rules: what each condition reaches, walked with work lists of
// their own (a chain of thousands of macros or lists is no deep recursion).
void ConditionBuilder::AddList(const std::string& name,
                               absl::flat_hash_set<std::string>& lists) const {
  std::vector<std::string> todo = {name};
  while (!todo.empty()) {
    const std::string next = std::move(todo.back());
    todo.pop_back();
    const auto it = defs_.list_index.find(next);
    if (it == defs_.list_index.end() || !lists.insert(next).second) continue;
    for (const ListItem& item : defs_.lists[it->second].items) {
      if (!item.quoted && defs_.list_index.contains(item.text)) todo.push_back(item.text);
    }
  }
}

void ConditionBuilder::AddListRefs(const Expr& e, absl::flat_hash_set<std::string>& lists) const {
  VisitComparisons(e, [&](const filter::Comparison& c) {
    if (const auto* ref = std::get_if<filter::ListRef>(&c.operand.value)) {
      AddList(ref->name, lists);
    } else if (const auto* one = std::get_if<filter::Literal>(&c.operand.value)) {
      if (!one->quoted) AddList(one->text, lists);
    } else if (const auto* items = std::get_if<std::vector<filter::Literal>>(&c.operand.value)) {
      for (const filter::Literal& l : *items) {
        if (!l.quoted) AddList(l.text, lists);
      }
    }
  });
}

void ConditionBuilder::AddMacroRefs(const Expr& e, absl::flat_hash_set<std::string>& macros,
                                    absl::flat_hash_set<std::string>& lists) const {
  std::vector<const Expr*> todo = {&e};
  while (!todo.empty()) {
    const Expr* next = todo.back();
    todo.pop_back();
    AddListRefs(*next, lists);
    std::vector<std::string> refs;
    std::vector<filter::SourcePos> pos;
    CollectMacroRefs(*next, refs, pos);
    for (const std::string& ref : refs) {
      if (!macros.insert(ref).second) continue;
      const auto it = macros_.find(ref);
      if (it != macros_.end() && it->second.parsed) todo.push_back(it->second.parsed.get());
    }
  }
}

namespace {
std::vector<std::string> Sorted(const absl::flat_hash_set<std::string>& names) {
  std::vector<std::string> out(names.begin(), names.end());
  std::sort(out.begin(), out.end());
  return out;
}
}  // namespace

void ConditionBuilder::RuleRefs(const RuleDef& rule, RuleDetails& details) const {
  absl::flat_hash_set<std::string> macros, lists;
  if (absl::StatusOr<ExprPtr> parsed = filter::ParseCondition(rule.condition); parsed.ok()) {
    AddMacroRefs(**parsed, macros, lists);
  }
  for (const ExceptionDef& e : rule.exceptions) {
    details.exceptions.push_back(e.name);
    for (const std::vector<ExceptionValue>& row : e.values) {
      for (const ExceptionValue& v : row) {
        for (const ListItem& i : v.items) {
          if (!i.quoted) AddList(i.text, lists);
        }
      }
    }
  }
  details.macros = Sorted(macros);
  details.lists = Sorted(lists);
}

void ConditionBuilder::DescribeDefinitions(RulesDescription& out) {
  absl::flat_hash_set<std::string> used_macros, used_lists;
  for (const RuleDetails& r : out.rules) {
    used_macros.insert(r.macros.begin(), r.macros.end());
    used_lists.insert(r.lists.begin(), r.lists.end());
  }
  for (const MacroDef& def : defs_.macros) {
    MacroDetails d;
    d.name = def.name;
    d.condition = def.condition;
    d.file = def.place.file;
    d.line = def.place.line;
    d.used = used_macros.contains(def.name);
    const Macro& m = macros_.at(def.name);
    if (m.parsed) {
      absl::flat_hash_set<std::string> macros, lists;
      AddMacroRefs(*m.parsed, macros, lists);
      d.macros = Sorted(macros);
      d.lists = Sorted(lists);
      ExprPtr copy = filter::Clone(*m.parsed);
      size_t terms = 0;
      if (Substitute(*copy, terms).ok()) d.condition_compiled = filter::ToString(*copy);
    }
    out.macros.push_back(std::move(d));
  }
  for (const ListDef& def : defs_.lists) {
    ListDetails d;
    d.name = def.name;
    d.file = def.place.file;
    d.line = def.place.line;
    d.used = used_lists.contains(def.name);
    absl::flat_hash_set<std::string> lists;
    for (const ListItem& item : def.items) {
      d.items.push_back(item.text);
      if (!item.quoted && item.text != def.name) AddList(item.text, lists);
    }
    d.lists = Sorted(lists);
    std::vector<std::string> stack;
    std::vector<filter::Literal> items;
    if (ListItems(def.name, stack, items).ok()) {
      for (filter::Literal& l : items) d.items_compiled.push_back(std::move(l.text));
    }
    out.lists.push_back(std::move(d));
  }
}

}  // namespace kestrel::engine::rules
