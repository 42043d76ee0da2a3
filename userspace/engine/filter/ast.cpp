#include "engine/filter/ast.h"

#include <array>
#include <utility>

#include "absl/strings/str_cat.h"
#include "engine/filter/scanner.h"

namespace kestrel::engine::filter {
namespace {

struct TransformerSpelling {
  Transformer transformer;
  std::string_view name;
};

constexpr std::array<TransformerSpelling, 5> kTransformers = {{
    {Transformer::kToLower, "tolower"},
    {Transformer::kToUpper, "toupper"},
    {Transformer::kB64, "b64"},
    {Transformer::kBasename, "basename"},
    {Transformer::kLen, "len"},
}};

// Text as the parser reads it back: quoted when it was, or when it would
// not read back as one bare word.
void AppendLiteral(std::string& out, const Literal& l) {
  bool needs_quotes = l.quoted || l.text.empty();
  for (const char c : l.text) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '(' || c == ')' || c == ',' ||
        c == '=' || c == '"' || c == '\'') {
      needs_quotes = true;
    }
  }
  if (!needs_quotes) {
    out += l.text;
    return;
  }
  out += '"';
  for (const char c : l.text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  out += '"';
}

void AppendField(std::string& out, const FieldRef& f);

void AppendArgs(std::string& out, const std::vector<FieldRef>& args) {
  for (size_t i = 0; i < args.size(); ++i) {
    if (i) out += ", ";
    AppendField(out, args[i]);
  }
}

void AppendCombination(std::string& out, const Combination& c) {
  switch (c.kind) {
    case Combiner::kLiteral:
      AppendLiteral(out, c.literal);
      return;
    case Combiner::kList:
      out += '(';
      AppendArgs(out, c.args);
      out += ')';
      return;
    case Combiner::kJoin:
    case Combiner::kConcat:
    case Combiner::kGetopt:
      absl::StrAppend(&out, Sv(CombinerName(c.kind)), "(");
      AppendArgs(out, c.args);
      out += ')';
      return;
  }
}

void AppendField(std::string& out, const FieldRef& f) {
  for (auto it = f.transformers.rbegin(); it != f.transformers.rend(); ++it) {
    absl::StrAppend(&out, Sv(TransformerName(*it)), "(");
  }
  if (f.combination) {
    AppendCombination(out, *f.combination);
  } else {
    out += f.name;
  }
  if (f.index) absl::StrAppend(&out, "[", *f.index, "]");
  out.append(f.transformers.size(), ')');
}

void AppendExpr(std::string& out, const Expr& e);

template <typename Group>
void AppendGroup(std::string& out, const Group& g, std::string_view op) {
  out += '(';
  for (size_t i = 0; i < g.operands.size(); ++i) {
    if (i) absl::StrAppend(&out, " ", Sv(op), " ");
    AppendExpr(out, *g.operands[i]);
  }
  out += ')';
}

void AppendComparison(std::string& out, const Comparison& c) {
  AppendField(out, c.field);
  absl::StrAppend(&out, " ", Sv(CompareOpName(c.op)));
  if (c.modifier != Modifier::kNone) absl::StrAppend(&out, " ", Sv(ModifierName(c.modifier)));
  if (const auto* lit = std::get_if<Literal>(&c.operand.value)) {
    out += ' ';
    AppendLiteral(out, *lit);
  } else if (const auto* list = std::get_if<std::vector<Literal>>(&c.operand.value)) {
    out += " (";
    for (size_t i = 0; i < list->size(); ++i) {
      if (i) out += ", ";
      AppendLiteral(out, (*list)[i]);
    }
    out += ')';
  } else if (const auto* list = std::get_if<ListRef>(&c.operand.value)) {
    absl::StrAppend(&out, " ", list->name);
  } else if (const auto* field = std::get_if<FieldRef>(&c.operand.value)) {
    // A bare field on the right is spelt val(); one under a transformer
    // needs no val().
    const bool bare = field->transformers.empty() && !field->combination;
    out += bare ? " val(" : " ";
    AppendField(out, *field);
    if (bare) out += ')';
  }
}

void AppendExpr(std::string& out, const Expr& e) {
  if (const auto* c = std::get_if<Comparison>(&e.node)) {
    AppendComparison(out, *c);
  } else if (const auto* m = std::get_if<MacroRef>(&e.node)) {
    out += m->name;
  } else if (const auto* n = std::get_if<Not>(&e.node)) {
    out += "not ";
    AppendExpr(out, *n->operand);
  } else if (const auto* a = std::get_if<And>(&e.node)) {
    AppendGroup(out, *a, "and");
  } else if (const auto* o = std::get_if<Or>(&e.node)) {
    AppendGroup(out, *o, "or");
  }
}

template <typename Group>
Group CloneGroup(const Group& g) {
  Group copy;
  copy.operands.reserve(g.operands.size());
  for (const ExprPtr& operand : g.operands) copy.operands.push_back(Clone(*operand));
  return copy;
}

}  // namespace

std::string_view TransformerName(Transformer t) {
  for (const TransformerSpelling& s : kTransformers) {
    if (s.transformer == t) return s.name;
  }
  return "?";
}

std::optional<Transformer> TransformerByName(std::string_view name) {
  for (const TransformerSpelling& s : kTransformers) {
    if (s.name == name) return s.transformer;
  }
  return std::nullopt;
}

std::string_view CombinerName(Combiner c) {
  switch (c) {
    case Combiner::kJoin:
      return "join";
    case Combiner::kConcat:
      return "concat";
    case Combiner::kGetopt:
      return "getopt";
    case Combiner::kLiteral:
      return "a literal";
    case Combiner::kList:
      return "a list";
  }
  return "?";
}

std::optional<Combiner> CombinerByName(std::string_view name) {
  for (const Combiner c : {Combiner::kJoin, Combiner::kConcat, Combiner::kGetopt}) {
    if (CombinerName(c) == name) return c;
  }
  return std::nullopt;
}

bool FieldRef::operator==(const FieldRef& other) const {
  const bool same_combination =
      combination == other.combination ||
      (combination && other.combination && *combination == *other.combination);
  return same_combination && name == other.name && index == other.index &&
         transformers == other.transformers && pos == other.pos;
}

void ForEachNamedField(const FieldRef& f, const std::function<void(const FieldRef&)>& visit) {
  if (!f.combination) {
    visit(f);
    return;
  }
  for (const FieldRef& arg : f.combination->args) ForEachNamedField(arg, visit);
}

std::string_view ModifierName(Modifier m) {
  switch (m) {
    case Modifier::kNone:
      return "";
    case Modifier::kOneOf:
      return "oneof";
    case Modifier::kAnyOf:
      return "anyof";
    case Modifier::kAllOf:
      return "allof";
  }
  return "?";
}

std::optional<Modifier> ModifierByName(std::string_view name) {
  for (const Modifier m : {Modifier::kOneOf, Modifier::kAnyOf, Modifier::kAllOf}) {
    if (ModifierName(m) == name) return m;
  }
  return std::nullopt;
}

bool TakesModifier(CompareOp op) {
  return op != CompareOp::kLt && op != CompareOp::kLe && op != CompareOp::kGt &&
         op != CompareOp::kGe && op != CompareOp::kExists && !TakesList(op);
}

std::string_view CompareOpName(CompareOp op) {
  switch (op) {
    case CompareOp::kEq:
      return "=";
    case CompareOp::kNe:
      return "!=";
    case CompareOp::kLt:
      return "<";
    case CompareOp::kLe:
      return "<=";
    case CompareOp::kGt:
      return ">";
    case CompareOp::kGe:
      return ">=";
    case CompareOp::kContains:
      return "contains";
    case CompareOp::kIContains:
      return "icontains";
    case CompareOp::kBContains:
      return "bcontains";
    case CompareOp::kStartsWith:
      return "startswith";
    case CompareOp::kBStartsWith:
      return "bstartswith";
    case CompareOp::kEndsWith:
      return "endswith";
    case CompareOp::kGlob:
      return "glob";
    case CompareOp::kIGlob:
      return "iglob";
    case CompareOp::kRegex:
      return "regex";
    case CompareOp::kIn:
      return "in";
    case CompareOp::kIntersects:
      return "intersects";
    case CompareOp::kPmatch:
      return "pmatch";
    case CompareOp::kExists:
      return "exists";
  }
  return "?";
}

bool TakesList(CompareOp op) {
  return op == CompareOp::kIn || op == CompareOp::kIntersects || op == CompareOp::kPmatch;
}

std::string ToString(const Expr& e) {
  std::string out;
  AppendExpr(out, e);
  return out;
}

std::string ToString(const FieldRef& f) {
  std::string out;
  AppendField(out, f);
  return out;
}

ExprPtr Clone(const Expr& e) {
  auto copy = std::make_unique<Expr>();
  copy->pos = e.pos;
  if (const auto* c = std::get_if<Comparison>(&e.node)) {
    copy->node = Comparison{c->field, c->op, c->operand, c->modifier};
  } else if (const auto* m = std::get_if<MacroRef>(&e.node)) {
    copy->node = *m;
  } else if (const auto* n = std::get_if<Not>(&e.node)) {
    copy->node = Not{Clone(*n->operand)};
  } else if (const auto* a = std::get_if<And>(&e.node)) {
    copy->node = CloneGroup(*a);
  } else if (const auto* o = std::get_if<Or>(&e.node)) {
    copy->node = CloneGroup(*o);
  }
  return copy;
}

}  // namespace kestrel::engine::filter
