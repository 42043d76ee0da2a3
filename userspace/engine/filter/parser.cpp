#include "engine/filter/parser.h"

#include <array>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "engine/filter/scanner.h"

namespace kestrel::engine::filter {
namespace {

struct OpSpelling {
  std::string_view text;
  CompareOp op;
  bool is_word;  // a keyword (must not run into a name) rather than a symbol
};

// Longest symbols first, so "<=" is not read as "<".
constexpr std::array<OpSpelling, 20> kOperators = {{
    {"==", CompareOp::kEq, false},
    {"!=", CompareOp::kNe, false},
    {"<=", CompareOp::kLe, false},
    {">=", CompareOp::kGe, false},
    {"=", CompareOp::kEq, false},
    {"<", CompareOp::kLt, false},
    {">", CompareOp::kGt, false},
    {"exists", CompareOp::kExists, true},
    {"contains", CompareOp::kContains, true},
    {"icontains", CompareOp::kIContains, true},
    {"bcontains", CompareOp::kBContains, true},
    {"startswith", CompareOp::kStartsWith, true},
    {"bstartswith", CompareOp::kBStartsWith, true},
    {"endswith", CompareOp::kEndsWith, true},
    {"glob", CompareOp::kGlob, true},
    {"iglob", CompareOp::kIGlob, true},
    {"regex", CompareOp::kRegex, true},
    {"intersects", CompareOp::kIntersects, true},
    {"in", CompareOp::kIn, true},
    {"pmatch", CompareOp::kPmatch, true},
}};

constexpr std::string_view kOperatorHint =
    "(=, !=, <, <=, >, >=, contains, icontains, bcontains, startswith, bstartswith, endswith, "
    "glob, iglob, regex, in, intersects, pmatch, exists)";

bool IsKeyword(std::string_view name) { return name == "and" || name == "or" || name == "not"; }

bool IsNumericOp(CompareOp op) {
  return op == CompareOp::kLt || op == CompareOp::kLe || op == CompareOp::kGt ||
         op == CompareOp::kGe;
}

class Parser {
 public:
  explicit Parser(std::string_view text) : scan_(text) {}

  absl::StatusOr<ExprPtr> ParseAll() {
    scan_.SkipBlanks();
    if (scan_.AtEnd()) return Scanner::ErrorAt(scan_.pos(), "the condition is empty");
    absl::StatusOr<ExprPtr> e = ParseOr();
    if (!e.ok()) return e;
    scan_.SkipBlanks();
    if (!scan_.AtEnd()) {
      return Scanner::ErrorAt(
          scan_.pos(), absl::StrCat("expected 'and', 'or' or the end of the condition, found ",
                                    scan_.Upcoming()));
    }
    return e;
  }

 private:
  // Counts nesting while a parse function runs, bounding recursion.
  class DepthGuard {
   public:
    explicit DepthGuard(int& depth) : depth_(depth) { ++depth_; }
    ~DepthGuard() { --depth_; }
    bool too_deep() const { return depth_ > kMaxConditionDepth; }

   private:
    int& depth_;
  };

  absl::Status TooDeep() {
    return Scanner::ErrorAt(scan_.pos(), absl::StrCat("the condition nests deeper than ",
                                                      kMaxConditionDepth, " levels"));
  }

  template <typename Group>
  absl::StatusOr<ExprPtr> ParseGroup(std::string_view keyword,
                                     absl::StatusOr<ExprPtr> (Parser::*operand)()) {
    DepthGuard guard(depth_);
    if (guard.too_deep()) return TooDeep();
    scan_.SkipBlanks();
    const SourcePos start = scan_.pos();
    absl::StatusOr<ExprPtr> first = (this->*operand)();
    if (!first.ok()) return first;
    Group group;
    group.operands.push_back(*std::move(first));
    for (;;) {
      scan_.SkipBlanks();
      if (!scan_.TryWord(keyword)) break;
      absl::StatusOr<ExprPtr> next = (this->*operand)();
      if (!next.ok()) return next;
      group.operands.push_back(*std::move(next));
    }
    if (group.operands.size() == 1) return std::move(group.operands.front());
    auto e = std::make_unique<Expr>();
    e->node = std::move(group);
    e->pos = start;
    return e;
  }

  absl::StatusOr<ExprPtr> ParseOr() { return ParseGroup<Or>("or", &Parser::ParseAnd); }
  absl::StatusOr<ExprPtr> ParseAnd() { return ParseGroup<And>("and", &Parser::ParseNot); }

  absl::StatusOr<ExprPtr> ParseNot() {
    DepthGuard guard(depth_);
    if (guard.too_deep()) return TooDeep();
    scan_.SkipBlanks();
    const SourcePos start = scan_.pos();
    if (!scan_.TryWord("not")) return ParsePrimary();
    absl::StatusOr<ExprPtr> operand = ParseNot();
    if (!operand.ok()) return operand;
    auto e = std::make_unique<Expr>();
    e->node = Not{*std::move(operand)};
    e->pos = start;
    return e;
  }

  absl::StatusOr<ExprPtr> ParsePrimary() {
    scan_.SkipBlanks();
    const SourcePos start = scan_.pos();
    if (scan_.TryChar('(')) {
      absl::StatusOr<ExprPtr> inner = ParseOr();
      if (!inner.ok()) return inner;
      scan_.SkipBlanks();
      if (!scan_.TryChar(')')) {
        return Scanner::ErrorAt(
            scan_.pos(), absl::StrCat("expected ')' closing the '(' at line ", start.line,
                                      ", column ", start.column, ", found ", scan_.Upcoming()));
      }
      return inner;
    }
    const std::string name = scan_.ReadName();
    if (name.empty() || IsKeyword(name)) {
      return Scanner::ErrorAt(
          start, absl::StrCat("expected a field check, a macro name, 'not' or "
                              "'(', found ",
                              name.empty() ? scan_.Upcoming() : absl::StrCat("'", name, "'")));
    }
    const bool dotted = name.find('.') != std::string::npos;
    if (!dotted && scan_.Peek() == '(') {
      absl::StatusOr<FieldRef> field = ParseTransformedField(name, start);
      if (!field.ok()) return field.status();
      return ParseCheck(*std::move(field), start);
    }
    if (!dotted) {
      auto e = std::make_unique<Expr>();
      e->node = MacroRef{name};
      e->pos = start;
      return e;
    }
    absl::StatusOr<FieldRef> field = ParseFieldRest(name, start);
    if (!field.ok()) return field.status();
    return ParseCheck(*std::move(field), start);
  }

  // After a dotted name: an optional [argument].
  absl::StatusOr<FieldRef> ParseFieldRest(std::string name, const SourcePos& start) {
    FieldRef field;
    field.name = std::move(name);
    field.pos = start;
    if (!scan_.TryChar('[')) return field;
    absl::StatusOr<std::optional<std::string>> quoted = scan_.ReadQuoted();
    if (!quoted.ok()) return quoted.status();
    std::string arg = *quoted ? **quoted : scan_.ReadBareArgument();
    if (!*quoted && arg.empty()) {
      return Scanner::ErrorAt(scan_.pos(), absl::StrCat("expected an argument of ", field.name,
                                                        " inside [ ], found ", scan_.Upcoming()));
    }
    if (!scan_.TryChar(']')) {
      return Scanner::ErrorAt(scan_.pos(), absl::StrCat("expected ']' after the argument of ",
                                                        field.name, ", found ", scan_.Upcoming()));
    }
    field.index = std::move(arg);
    return field;
  }

  // `name(` was seen, name having no dot: a transformer around its
  // arguments. One argument under tolower() and the like; join(), concat()
  // and getopt() combine several. An argument is a field, a transformer, a
  // quoted string, a number or a list of those; `[x]` may follow the ')'.
  absl::StatusOr<FieldRef> ParseTransformedField(const std::string& name, const SourcePos& start) {
    DepthGuard guard(depth_);
    if (guard.too_deep()) return TooDeep();
    const std::optional<Transformer> transformer = TransformerByName(name);
    const std::optional<Combiner> combiner = CombinerByName(name);
    if (!transformer && !combiner) {
      return Scanner::ErrorAt(start, absl::StrCat("unknown transformer '", name,
                                                  "' (known: tolower, toupper, b64, basename, "
                                                  "len, join, concat, getopt; val() only right of "
                                                  "an operator)"));
    }
    scan_.TryChar('(');
    std::vector<FieldRef> args;
    do {
      absl::StatusOr<FieldRef> arg = ParseTransformerArg(name);
      if (!arg.ok()) return arg;
      args.push_back(*std::move(arg));
      scan_.SkipBlanks();
    } while (scan_.TryChar(','));
    if (!scan_.TryChar(')')) {
      return Scanner::ErrorAt(scan_.pos(), absl::StrCat("expected ',' or ')' closing ", name,
                                                        "(, found ", scan_.Upcoming()));
    }
    std::optional<std::string> index;
    if (scan_.Peek() == '[') {
      const SourcePos at = scan_.pos();
      absl::StatusOr<FieldRef> selector = ParseFieldRest(name, at);
      if (!selector.ok()) return selector;
      if (combiner != Combiner::kGetopt) {
        return Scanner::ErrorAt(at, absl::StrCat(name, "() takes no [argument]"));
      }
      index = selector->index;
    }
    if (transformer) {
      if (args.size() != 1) {
        return Scanner::ErrorAt(start,
                                absl::StrCat(name, "() takes one argument, not ", args.size()));
      }
      FieldRef field = std::move(args.front());
      field.transformers.push_back(*transformer);
      field.pos = start;
      return field;
    }
    FieldRef field;
    field.combination =
        std::make_shared<const Combination>(Combination{*combiner, std::move(args), Literal{}});
    field.index = std::move(index);
    field.pos = start;
    return field;
  }

  // One argument of a transformer: a field, a transformer, a quoted string,
  // a number, or (inside the call, not inside a list) a list of those.
  absl::StatusOr<FieldRef> ParseTransformerArg(std::string_view transformer, bool in_list = false) {
    DepthGuard guard(depth_);
    if (guard.too_deep()) return TooDeep();
    scan_.SkipBlanks();
    const SourcePos start = scan_.pos();
    const char c = scan_.Peek();
    const auto literal = [&](std::string text, bool quoted) {
      FieldRef f;
      f.combination = std::make_shared<const Combination>(
          Combination{Combiner::kLiteral, {}, Literal{std::move(text), quoted, start}});
      f.pos = start;
      return f;
    };
    absl::StatusOr<std::optional<std::string>> quoted = scan_.ReadQuoted();
    if (!quoted.ok()) return quoted.status();
    if (*quoted) return literal(**std::move(quoted), true);
    if (absl::ascii_isdigit(static_cast<unsigned char>(c)) || c == '+' || c == '-') {
      return literal(scan_.ReadBareWord(), false);
    }
    if (c == '(' && !in_list) {
      scan_.TryChar('(');
      std::vector<FieldRef> items;
      scan_.SkipBlanks();
      if (!scan_.TryChar(')')) {
        do {
          absl::StatusOr<FieldRef> item = ParseTransformerArg(transformer, true);
          if (!item.ok()) return item;
          items.push_back(*std::move(item));
          scan_.SkipBlanks();
        } while (scan_.TryChar(','));
        if (!scan_.TryChar(')')) {
          return Scanner::ErrorAt(
              scan_.pos(), absl::StrCat("expected ',' or ')' closing the list in ", Sv(transformer),
                                        "(, found ", scan_.Upcoming()));
        }
      }
      FieldRef f;
      f.combination = std::make_shared<const Combination>(
          Combination{Combiner::kList, std::move(items), Literal{}});
      f.pos = start;
      return f;
    }
    const std::string inner = scan_.ReadName();
    if (!inner.empty() && inner.find('.') == std::string::npos && scan_.Peek() == '(') {
      return ParseTransformedField(inner, start);
    }
    if (inner.find('.') != std::string::npos) return ParseFieldRest(inner, start);
    return Scanner::ErrorAt(
        start, absl::StrCat("expected a field, a transformer, a quoted string, a number",
                            std::string(in_list ? "" : " or a list"), " inside ", Sv(transformer),
                            "(), found ", inner.empty() ? scan_.Upcoming() : "'" + inner + "'"));
  }

  absl::StatusOr<CompareOp> ParseOperator(const FieldRef& field) {
    scan_.SkipBlanks();
    for (const OpSpelling& s : kOperators) {
      if (s.is_word ? scan_.TryWord(s.text) : scan_.TryText(s.text)) return s.op;
    }
    return Scanner::ErrorAt(scan_.pos(),
                            absl::StrCat("expected an operator after ", ToString(field), " ",
                                         Sv(kOperatorHint), ", found ", scan_.Upcoming()));
  }

  absl::StatusOr<ExprPtr> ParseCheck(FieldRef field, const SourcePos& start) {
    absl::StatusOr<CompareOp> op = ParseOperator(field);
    if (!op.ok()) return op.status();
    Comparison cmp{std::move(field), *op, Operand{}};
    absl::StatusOr<Modifier> modifier = TryParseModifier(*op);
    if (!modifier.ok()) return modifier.status();
    if (*modifier != Modifier::kNone) {
      absl::StatusOr<Operand> list = ParseModifiedList(*modifier);
      if (!list.ok()) return list.status();
      cmp.modifier = *modifier;
      cmp.operand = *std::move(list);
    } else if (*op != CompareOp::kExists) {
      absl::StatusOr<Operand> operand = TakesList(*op) ? ParseListOperand() : ParseValue(*op);
      if (!operand.ok()) return operand.status();
      cmp.operand = *std::move(operand);
    }
    auto e = std::make_unique<Expr>();
    e->node = std::move(cmp);
    e->pos = start;
    return e;
  }

  // `oneof`, `anyof` or `allof` after a string operator, when a list or a
  // list name follows it; otherwise nothing is consumed (`proc.name = anyof`
  // compares with the word "anyof", as in Falco).
  absl::StatusOr<Modifier> TryParseModifier(CompareOp op) {
    if (!TakesModifier(op)) return Modifier::kNone;
    const Scanner saved = scan_;
    if (!scan_.SkipBlanks()) return Modifier::kNone;
    const std::string word = scan_.ReadName();
    const std::optional<Modifier> modifier = ModifierByName(word);
    if (modifier && scan_.SkipBlanks()) {
      const Scanner after = scan_;
      const std::string next = scan_.ReadName();
      scan_ = after;
      if (scan_.Peek() == '(' || (!next.empty() && !IsKeyword(next))) return *modifier;
    }
    scan_ = saved;
    return Modifier::kNone;
  }

  // The list after a modifier: `(a, b, ...)` or a list name.
  absl::StatusOr<Operand> ParseModifiedList(Modifier modifier) {
    if (scan_.Peek() == '(') {
      std::vector<Literal> items;
      if (absl::Status s = ParseList(items); !s.ok()) return s;
      return Operand{std::move(items)};
    }
    const SourcePos start = scan_.pos();
    const std::string name = scan_.ReadName();
    if (name.find('.') != std::string::npos) {
      return Scanner::ErrorAt(start,
                              absl::StrCat("expected a list '(a, b, ...)' or a list name "
                                           "after '",
                                           Sv(ModifierName(modifier)), "', found '", name, "'"));
    }
    return Operand{ListRef{name, start}};
  }

  // `val(field)` or `transformer(field)` on the right of an operator, or
  // nullopt when neither starts here (nothing is consumed then).
  absl::StatusOr<std::optional<FieldRef>> TryParseFieldValue() {
    const Scanner saved = scan_;
    const SourcePos start = scan_.pos();
    const std::string name = scan_.ReadName();
    if (name.empty() || name.find('.') != std::string::npos || scan_.Peek() != '(') {
      scan_ = saved;
      return std::optional<FieldRef>();
    }
    if (name != "val") {
      if (!TransformerByName(name) && !CombinerByName(name)) {
        scan_ = saved;
        return std::optional<FieldRef>();
      }
      absl::StatusOr<FieldRef> f = ParseTransformedField(name, start);
      if (!f.ok()) return f.status();
      return std::optional<FieldRef>(*std::move(f));
    }
    scan_.TryChar('(');
    scan_.SkipBlanks();
    const SourcePos field_start = scan_.pos();
    const std::string field_name = scan_.ReadName();
    if (field_name.find('.') == std::string::npos) {
      return Scanner::ErrorAt(
          field_start,
          absl::StrCat("expected a field inside val(), found ",
                       field_name.empty() ? scan_.Upcoming() : "'" + field_name + "'"));
    }
    absl::StatusOr<FieldRef> f = ParseFieldRest(field_name, field_start);
    if (!f.ok()) return f.status();
    scan_.SkipBlanks();
    if (!scan_.TryChar(')')) {
      return Scanner::ErrorAt(scan_.pos(),
                              absl::StrCat("expected ')' closing val(, found ", scan_.Upcoming()));
    }
    return std::optional<FieldRef>(*std::move(f));
  }

  absl::StatusOr<Operand> ParseValue(CompareOp op) {
    scan_.SkipBlanks();
    absl::StatusOr<std::optional<FieldRef>> field = TryParseFieldValue();
    if (!field.ok()) return field.status();
    if (*field) return Operand{**std::move(field)};
    absl::StatusOr<std::optional<Literal>> lit = ReadLiteral();
    if (!lit.ok()) return lit.status();
    if (!*lit) {
      return Scanner::ErrorAt(
          scan_.pos(), absl::StrCat("expected a value after '", Sv(CompareOpName(op)), "', found ",
                                    scan_.Upcoming()));
    }
    if (IsNumericOp(op) && (*lit)->quoted) {
      return Scanner::ErrorAt(
          (*lit)->pos, absl::StrCat("'", Sv(CompareOpName(op)),
                                    "' compares numbers; found the string \"", (*lit)->text, "\""));
    }
    return Operand{**std::move(lit)};
  }

  absl::StatusOr<std::optional<Literal>> ReadLiteral() {
    Literal lit;
    lit.pos = scan_.pos();
    absl::StatusOr<std::optional<std::string>> quoted = scan_.ReadQuoted();
    if (!quoted.ok()) return quoted.status();
    if (*quoted) {
      lit.text = **std::move(quoted);
      lit.quoted = true;
      return std::optional<Literal>(std::move(lit));
    }
    lit.text = scan_.ReadBareWord();
    if (lit.text.empty()) return std::optional<Literal>();
    return std::optional<Literal>(std::move(lit));
  }

  absl::StatusOr<Operand> ParseListOperand() {
    scan_.SkipBlanks();
    if (scan_.Peek() == '(') {
      std::vector<Literal> items;
      if (absl::Status s = ParseList(items); !s.ok()) return s;
      return Operand{std::move(items)};
    }
    absl::StatusOr<std::optional<FieldRef>> field = TryParseFieldValue();
    if (!field.ok()) return field.status();
    if (*field) return Operand{**std::move(field)};
    const SourcePos start = scan_.pos();
    const std::string name = scan_.ReadName();
    if (name.empty() || name.find('.') != std::string::npos || IsKeyword(name)) {
      return Scanner::ErrorAt(start,
                              absl::StrCat("expected a list '(a, b, ...)' or a list name, "
                                           "found ",
                                           name.empty() ? scan_.Upcoming() : "'" + name + "'"));
    }
    return Operand{ListRef{name, start}};
  }

  // '(' items ')', appending every item (nested lists flattened) to `out`.
  absl::Status ParseList(std::vector<Literal>& out) {
    DepthGuard guard(depth_);
    if (guard.too_deep()) return TooDeep();
    const SourcePos open = scan_.pos();
    scan_.TryChar('(');
    scan_.SkipBlanks();
    if (scan_.TryChar(')')) return absl::OkStatus();
    for (;;) {
      scan_.SkipBlanks();
      if (scan_.Peek() == '(') {
        if (absl::Status s = ParseList(out); !s.ok()) return s;
      } else {
        absl::StatusOr<std::optional<Literal>> lit = ReadLiteral();
        if (!lit.ok()) return lit.status();
        if (!*lit) {
          return Scanner::ErrorAt(scan_.pos(),
                                  absl::StrCat("expected a list item, found ", scan_.Upcoming()));
        }
        out.push_back(**std::move(lit));
      }
      scan_.SkipBlanks();
      if (scan_.TryChar(')')) return absl::OkStatus();
      if (!scan_.TryChar(',')) {
        return Scanner::ErrorAt(
            scan_.pos(), absl::StrCat("expected ',' or ')' in the list opened at line ", open.line,
                                      ", column ", open.column, ", found ", scan_.Upcoming()));
      }
    }
  }

  Scanner scan_;
  int depth_ = 0;
};

}  // namespace

absl::StatusOr<ExprPtr> ParseCondition(std::string_view text) { return Parser(text).ParseAll(); }

}  // namespace kestrel::engine::filter
