// The syntax tree of a Falco-style condition, as the parser reads it: no
// field is resolved and no macro expanded yet. The compiler turns it into
// the form evaluated per event; the rules loader substitutes macros and
// lists before that.
#ifndef KESTREL_ENGINE_FILTER_AST_H_
#define KESTREL_ENGINE_FILTER_AST_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace kestrel::engine::filter {

// Where a piece of a condition starts, for error messages (1-based).
struct SourcePos {
  uint32_t offset = 0;
  uint32_t line = 1;
  uint32_t column = 1;

  bool operator==(const SourcePos&) const = default;
};

enum class Transformer { kToLower, kToUpper, kB64, kBasename, kLen };

// The name a condition spells a transformer with (`tolower`, `len` ...).
std::string_view TransformerName(Transformer t);
std::optional<Transformer> TransformerByName(std::string_view name);

// What a value is made of when it is not one field: a transformer over
// several arguments (`join`, `concat`, `getopt`), a literal given as an
// argument (`concat(fd.directory, "/x")`) or a list of arguments
// (`join("-", (proc.name, fd.name))`).
enum class Combiner { kJoin, kConcat, kGetopt, kLiteral, kList };

std::string_view CombinerName(Combiner c);
// join, concat and getopt by name; the others have no name.
std::optional<Combiner> CombinerByName(std::string_view name);

// One literal, as text: numbers, IPs and flags are typed by the compiler
// once it knows the field's type. `quoted` keeps whether the author wrote
// quotes, for messages and for printing the condition back.
struct Literal {
  std::string text;
  bool quoted = false;
  SourcePos pos;

  bool operator==(const Literal&) const = default;
};

struct Combination;

// A field as written: `proc.name`, `proc.aname[2]`, `evt.arg.name` (the
// whole dotted name: the field table decides where the name ends and an
// argument starts), with the transformers wrapped around it, innermost
// first: `tolower(basename(fd.name))` is {kBasename, kToLower}. When
// `combination` is set the value is made of it instead and `name` is empty
// (`tolower(concat(proc.name, "-x"))`); `index` is then getopt's option
// selector (`getopt(...)[t]`).
struct FieldRef {
  std::string name;
  std::optional<std::string> index;  // the text between [ and ]
  std::shared_ptr<const Combination> combination;
  std::vector<Transformer> transformers;
  SourcePos pos;

  bool operator==(const FieldRef& other) const;
};

struct Combination {
  Combiner kind = Combiner::kLiteral;
  std::vector<FieldRef> args;  // kJoin, kConcat, kGetopt, kList
  Literal literal;             // kLiteral

  bool operator==(const Combination&) const = default;
};

// Calls `visit` with every named field `f` reads, inside combinations too.
void ForEachNamedField(const FieldRef& f, const std::function<void(const FieldRef&)>& visit);

enum class CompareOp {
  kEq,  // = and ==
  kNe,
  kLt,
  kLe,
  kGt,
  kGe,
  kContains,
  kIContains,
  kBContains,
  kStartsWith,
  kBStartsWith,
  kEndsWith,
  kGlob,
  kIGlob,
  kRegex,
  kIn,
  kIntersects,
  kPmatch,
  kExists,  // unary: takes no operand
};

std::string_view CompareOpName(CompareOp op);

// `in`, `intersects` and `pmatch` take a list; `exists` takes nothing.
bool TakesList(CompareOp op);

// A modifier after a string operator makes it take a list and hold when
// exactly one item (`oneof`), at least one (`anyof`) or every item
// (`allof`) holds: `proc.name startswith oneof (ba, da)`.
enum class Modifier : uint8_t { kNone, kOneOf, kAnyOf, kAllOf };

std::string_view ModifierName(Modifier m);
std::optional<Modifier> ModifierByName(std::string_view name);

// The operators a modifier may follow (Falco's string operators).
bool TakesModifier(CompareOp op);

// A list named by a bare identifier after a list operator
// (`proc.name in shell_binaries`): the rules loader substitutes it.
struct ListRef {
  std::string name;
  SourcePos pos;

  bool operator==(const ListRef&) const = default;
};

// The right-hand side of a comparison: one literal, a list of them (nested
// lists flattened in order), a named list, another field (`val(proc.pname)`,
// or a field under a transformer: `tolower(proc.pname)`), or nothing
// (`exists`).
struct Operand {
  std::variant<std::monostate, Literal, std::vector<Literal>, ListRef, FieldRef> value;

  bool operator==(const Operand&) const = default;
};

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;

struct Comparison {
  FieldRef field;
  CompareOp op;
  Operand operand;
  Modifier modifier = Modifier::kNone;  // a list operand when set
};

// A name with no dot in it: a macro, substituted before compilation.
struct MacroRef {
  std::string name;
};

struct Not {
  ExprPtr operand;
};

// `and` / `or` of two or more operands, flattened: `a and b and c` is one
// And with three children.
struct And {
  std::vector<ExprPtr> operands;
};
struct Or {
  std::vector<ExprPtr> operands;
};

struct Expr {
  std::variant<Comparison, MacroRef, Not, And, Or> node;
  SourcePos pos;
};

// Prints `e` back as a condition with every operator fully parenthesised,
// so two trees print the same exactly when they are the same tree.
std::string ToString(const Expr& e);

// A field (or transformer, or combination) as a condition spells it.
std::string ToString(const FieldRef& f);

// A deep copy (macros are copied into every condition that names them).
ExprPtr Clone(const Expr& e);

}  // namespace kestrel::engine::filter

#endif  // KESTREL_ENGINE_FILTER_AST_H_
