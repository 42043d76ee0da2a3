// FilterProgram::Add: a condition's syntax tree into shared, folded nodes.
#include <algorithm>
#include <cmath>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/filter/filter_program.h"
#include "engine/filter/parser.h"
#include "engine/filter/program_nodes.h"
#include "engine/filter/scanner.h"
#include "engine/filter/transformers.h"

namespace kestrel::engine::filter {
namespace {

bool IsOrderOp(CompareOp op) {
  return op == CompareOp::kEq || op == CompareOp::kNe || op == CompareOp::kLt ||
         op == CompareOp::kLe || op == CompareOp::kGt || op == CompareOp::kGe;
}

bool IsListOp(CompareOp op) { return TakesList(op); }

// Which operators a value type takes.
bool TypeTakes(ValueType type, CompareOp op) {
  if (op == CompareOp::kExists) return true;
  switch (type) {
    case ValueType::kString:
      return true;  // <, <=, >, >= compare bytes, as Falco's strcmp does
    case ValueType::kInt:
    case ValueType::kUint:
    case ValueType::kDouble:
      return IsOrderOp(op) || op == CompareOp::kIn || op == CompareOp::kIntersects;
    case ValueType::kBool:
      return op == CompareOp::kEq || op == CompareOp::kNe || op == CompareOp::kIn ||
             op == CompareOp::kIntersects;
    case ValueType::kStringList:
      return op == CompareOp::kIn || op == CompareOp::kIntersects;
    case ValueType::kIpAddr:
    case ValueType::kIpNet:
      return op == CompareOp::kEq || op == CompareOp::kNe || op == CompareOp::kIn ||
             op == CompareOp::kIntersects;
  }
  return false;
}

bool ParseSigned(std::string_view text, int64_t& out) {
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    uint64_t u = 0;
    if (!absl::SimpleHexAtoi(Sv(text.substr(2)), &u)) return false;
    out = static_cast<int64_t>(u);
    return true;
  }
  return absl::SimpleAtoi(Sv(text), &out);
}

bool ParseUnsigned(std::string_view text, uint64_t& out) {
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    return absl::SimpleHexAtoi(Sv(text.substr(2)), &out);
  }
  return !text.empty() && text[0] != '-' && absl::SimpleAtoi(Sv(text), &out);
}

std::string FieldText(const FieldRef& f) { return ToString(f); }

// Whether a value of `type` can stand as one item of a list or as a
// separator: numbers, booleans and addresses are used as their text.
bool IsScalar(ValueType type) { return type != ValueType::kStringList; }

}  // namespace

class Compiler {
 public:
  Compiler(FilterProgram& program, const FieldResolver& fields) : p_(program), fields_(fields) {}

  absl::StatusOr<uint32_t> Compile(const Expr& e) {
    if (const auto* c = std::get_if<Comparison>(&e.node)) return CompileComparison(*c, e.pos);
    if (const auto* m = std::get_if<MacroRef>(&e.node)) {
      return Scanner::ErrorAt(e.pos, absl::StrCat("macro '", m->name, "' is not defined"));
    }
    if (const auto* n = std::get_if<Not>(&e.node)) {
      absl::StatusOr<uint32_t> child = Compile(*n->operand);
      if (!child.ok()) return child;
      return Negate(*child);
    }
    const bool is_and = std::holds_alternative<And>(e.node);
    const std::vector<ExprPtr>& operands =
        is_and ? std::get<And>(e.node).operands : std::get<Or>(e.node).operands;
    std::vector<uint32_t> children;
    for (const ExprPtr& operand : operands) {
      absl::StatusOr<uint32_t> child = Compile(*operand);
      if (!child.ok()) return child;
      children.push_back(*child);
    }
    return Group(is_and ? NodeKind::kAnd : NodeKind::kOr, children);
  }

 private:
  const Node& At(uint32_t id) const { return *p_.nodes_[id]; }

  uint32_t Const(bool value) {
    auto n = std::make_unique<Node>();
    n->kind = NodeKind::kConst;
    n->constant = value;
    return p_.Intern(value ? "k1" : "k0", std::move(n));
  }

  uint32_t Negate(uint32_t child) {
    const Node& c = At(child);
    if (c.kind == NodeKind::kConst) return Const(!c.constant);
    if (c.kind == NodeKind::kNot) return c.children[0];
    auto n = std::make_unique<Node>();
    n->kind = NodeKind::kNot;
    n->children = {child};
    return p_.Intern(absl::StrCat("n", child), std::move(n));
  }

  // `and` / `or` of `children`, flattened, without repeats, and folded:
  // a false child decides an `and`, a true one an `or`.
  uint32_t Group(NodeKind kind, const std::vector<uint32_t>& children) {
    const bool decisive = kind == NodeKind::kOr;  // the value that decides the group
    std::vector<uint32_t> kept;
    for (const uint32_t c : children) {
      const Node& child = At(c);
      if (child.kind == NodeKind::kConst) {
        if (child.constant == decisive) return Const(decisive);
        continue;  // the neutral value drops out
      }
      const std::vector<uint32_t> flat =
          child.kind == kind ? child.children : std::vector<uint32_t>{c};
      for (const uint32_t f : flat) {
        if (std::find(kept.begin(), kept.end(), f) == kept.end()) kept.push_back(f);
      }
    }
    if (kept.empty()) return Const(!decisive);
    if (kept.size() == 1) return kept.front();
    auto n = std::make_unique<Node>();
    n->kind = kind;
    n->children = kept;
    return p_.Intern(absl::StrCat(kind == NodeKind::kAnd ? "a" : "o", absl::StrJoin(kept, ",")),
                     std::move(n));
  }

  // The type a combination makes, its argument slots checked; an error
  // names the combination's place.
  absl::StatusOr<ValueType> CombinedType(const FieldRef& f, std::vector<uint32_t>& args) {
    const Combination& c = *f.combination;
    std::vector<ValueType> types;
    for (const FieldRef& arg : c.args) {
      absl::StatusOr<uint32_t> slot = SlotFor(arg);
      if (!slot.ok()) return slot.status();
      if (p_.slots_[*slot]->spec.multiplicity != Multiplicity::kOne) {
        return Scanner::ErrorAt(arg.pos, absl::StrCat(FieldText(arg),
                                                      " has several values: it "
                                                      "cannot be an argument of ",
                                                      FieldText(f)));
      }
      args.push_back(*slot);
      types.push_back(p_.slots_[*slot]->type);
    }
    const std::string name(Sv(CombinerName(c.kind)));
    const auto wrong = [&](std::string_view why) {
      return Scanner::ErrorAt(f.pos, absl::StrCat(name, "() ", Sv(why)));
    };
    switch (c.kind) {
      case Combiner::kLiteral:
        return ValueType::kString;
      case Combiner::kList:
        return ValueType::kStringList;
      case Combiner::kJoin:
        if (types.size() != 2) return wrong("takes 2 arguments: a separator and a list");
        if (!IsScalar(types[0])) return wrong("takes one value as its separator, not a list");
        if (types[1] != ValueType::kStringList) return wrong("takes a list as its 2nd argument");
        return ValueType::kString;
      case Combiner::kConcat:
        if (types.size() < 2) return wrong("takes 2 arguments or more");
        for (const ValueType t : types) {
          if (t != ValueType::kString) return wrong("takes strings only");
        }
        return ValueType::kString;
      case Combiner::kGetopt:
        if (types.size() != 2) {
          return wrong("takes 2 arguments: the arguments as a list and an option string");
        }
        if (types[0] != ValueType::kStringList) return wrong("takes a list as its 1st argument");
        if (types[1] != ValueType::kString) return wrong("takes a string as its option string");
        if (f.index && f.index->size() != 1) {
          return wrong("selects one option character: getopt(...)[t]");
        }
        return f.index ? ValueType::kString : ValueType::kStringList;
    }
    return wrong("is unknown");
  }

  absl::StatusOr<uint32_t> SlotFor(const FieldRef& f) {
    DepthCount depth(depth_);
    if (depth_ > kMaxConditionDepth) {
      return Scanner::ErrorAt(f.pos, "transformers nest too deep");
    }
    FieldRef bare = f;
    bare.transformers.clear();
    std::vector<uint32_t> args;
    absl::StatusOr<FieldSpec> spec = FieldSpec{};
    if (f.combination) {
      absl::StatusOr<ValueType> made = CombinedType(f, args);
      if (!made.ok()) return made.status();
      spec->type = *made;
    } else {
      spec = fields_.Resolve(bare);
    }
    if (!spec.ok()) return Scanner::ErrorAt(f.pos, std::string(spec.status().message()));
    ValueType type = spec->type;
    if (spec->multiplicity != Multiplicity::kOne && !f.transformers.empty()) {
      return Scanner::ErrorAt(f.pos, absl::StrCat("transformers do not apply to ", FieldText(f),
                                                  ", which has several values"));
    }
    std::string key =
        f.combination ? absl::StrCat("m", FieldText(bare), ":") : absl::StrCat(spec->id, ":");
    for (const Transformer t : f.transformers) {
      const std::optional<ValueType> out = TransformedType(t, type);
      if (!out) {
        return Scanner::ErrorAt(
            f.pos, absl::StrCat(Sv(TransformerName(t)), "() does not take ",
                                Sv(ValueTypeName(type)), " values (", FieldText(f), ")"));
      }
      type = *out;
      absl::StrAppend(&key, static_cast<int>(t), ",");
    }
    if (const auto it = p_.slot_index_.find(key); it != p_.slot_index_.end()) return it->second;
    auto slot = std::make_unique<Slot>();
    slot->spec = *spec;
    slot->transformers = f.transformers;
    slot->type = type;
    if (f.combination) {
      slot->combiner = f.combination->kind;
      slot->args = std::move(args);
      for (const uint32_t arg : slot->args) slot->arg_types.push_back(p_.slots_[arg]->type);
      slot->literal = f.combination->literal.text;
      if (f.index) slot->selector = f.index->front();
    }
    const auto id = static_cast<uint32_t>(p_.slots_.size());
    p_.slots_.push_back(std::move(slot));
    p_.slot_index_.emplace(std::move(key), id);
    return id;
  }

  // One literal into the node's operand for `type`.
  absl::Status PrepareLiteral(const Literal& l, ValueType type, const FieldRef& field, Node& n) {
    const auto not_a = [&](std::string_view what) {
      return Scanner::ErrorAt(
          l.pos, absl::StrCat("'", l.text, "' is not ", Sv(what), " (", FieldText(field), " is ",
                              Sv(ValueTypeName(type)), ")"));
    };
    switch (type) {
      case ValueType::kInt:
        if (!ParseSigned(l.text, n.i)) return not_a("a number");
        if (IsListOp(n.op)) n.ints.insert(n.i);
        return absl::OkStatus();
      case ValueType::kUint:
        if (!ParseUnsigned(l.text, n.u)) return not_a("a number of 0 or more");
        if (IsListOp(n.op)) n.uints.insert(n.u);
        return absl::OkStatus();
      case ValueType::kDouble: {
        double d = 0;
        if (!absl::SimpleAtod(l.text, &d) || !std::isfinite(d)) return not_a("a number");
        n.d = d;
        if (IsListOp(n.op)) n.doubles.push_back(d);
        return absl::OkStatus();
      }
      case ValueType::kBool:
        if (l.text != "true" && l.text != "false") return not_a("true or false");
        n.b = l.text == "true";
        if (IsListOp(n.op)) n.uints.insert(n.b ? 1 : 0);
        return absl::OkStatus();
      case ValueType::kIpAddr: {
        const std::optional<IpAddress> a = ParseIpAddress(l.text);
        if (!a) return not_a("an IP address");
        n.nets.push_back(IpNetwork{*a, static_cast<uint8_t>(a->size * 8)});
        return absl::OkStatus();
      }
      case ValueType::kIpNet: {
        const std::optional<IpNetwork> net = ParseIpNetwork(l.text);
        if (!net) return not_a("an IP network (10.0.0.0/8, fd00::/8) or address");
        n.nets.push_back(*net);
        return absl::OkStatus();
      }
      case ValueType::kString:
      case ValueType::kStringList:
        break;
    }
    switch (n.op) {
      case CompareOp::kIn:
      case CompareOp::kIntersects:
        n.strings.insert(l.text);
        return absl::OkStatus();
      case CompareOp::kPmatch:
        n.prefixes.Add(l.text);
        return absl::OkStatus();
      case CompareOp::kIContains:
        n.text = absl::AsciiStrToLower(l.text);
        return absl::OkStatus();
      case CompareOp::kBContains:
      case CompareOp::kBStartsWith: {
        const bool hex =
            l.text.size() % 2 == 0 && std::all_of(l.text.begin(), l.text.end(), [](char c) {
              return absl::ascii_isxdigit(static_cast<unsigned char>(c));
            });
        if (!hex) return not_a("hexadecimal bytes (an even number of 0-9a-f digits)");
        n.text = absl::HexStringToBytes(l.text);
        return absl::OkStatus();
      }
      case CompareOp::kRegex: {
        n.regex = std::make_unique<re2::RE2>(l.text, re2::RE2::Quiet);
        if (!n.regex->ok()) {
          return Scanner::ErrorAt(
              l.pos, absl::StrCat("regex '", l.text, "' does not compile: ", n.regex->error()));
        }
        return absl::OkStatus();
      }
      default:
        n.text = l.text;
        return absl::OkStatus();
    }
  }

  absl::StatusOr<uint32_t> CompileComparison(const Comparison& c, const SourcePos& pos) {
    absl::StatusOr<uint32_t> slot = SlotFor(c.field);
    if (!slot.ok()) return slot;
    const ValueType type = p_.slots_[*slot]->type;
    if (!TypeTakes(type, c.op)) {
      return Scanner::ErrorAt(
          pos, absl::StrCat("'", Sv(CompareOpName(c.op)), "' does not apply to ",
                            FieldText(c.field), ", which is ", Sv(ValueTypeName(type))));
    }
    if (const auto* list = std::get_if<ListRef>(&c.operand.value)) {
      return Scanner::ErrorAt(list->pos, absl::StrCat("list '", list->name, "' is not defined"));
    }
    if (c.modifier != Modifier::kNone) return CompileModified(c, *slot, type, pos);
    auto n = std::make_unique<Node>();
    n->kind = NodeKind::kCompare;
    n->slot = *slot;
    n->op = c.op;
    std::string key = absl::StrCat("c", *slot, ":", static_cast<int>(c.op), ":");
    if (const auto* lit = std::get_if<Literal>(&c.operand.value)) {
      if (absl::Status s = PrepareLiteral(*lit, type, c.field, *n); !s.ok()) return s;
      absl::StrAppend(&key, "l", lit->text);
    } else if (const auto* items = std::get_if<std::vector<Literal>>(&c.operand.value)) {
      // An empty set matches nothing (a list field's `in` holds vacuously).
      if (items->empty() && type != ValueType::kStringList) return Const(false);
      std::vector<std::string> texts;
      for (const Literal& item : *items) {
        if (absl::Status s = PrepareLiteral(item, type, c.field, *n); !s.ok()) return s;
        texts.push_back(item.text);
      }
      std::sort(texts.begin(), texts.end());  // a set: order and repeats do not matter
      texts.erase(std::unique(texts.begin(), texts.end()), texts.end());
      absl::StrAppend(&key, "s", absl::StrJoin(texts, "\x1f"));
    } else if (const auto* other = std::get_if<FieldRef>(&c.operand.value)) {
      absl::StatusOr<uint32_t> rhs = SlotFor(*other);
      if (!rhs.ok()) return rhs;
      const ValueType rhs_type = p_.slots_[*rhs]->type;
      const bool comparable = IsOrderOp(c.op) || c.op == CompareOp::kContains ||
                              c.op == CompareOp::kStartsWith || c.op == CompareOp::kEndsWith;
      if (!comparable || IsListOp(c.op)) {
        return Scanner::ErrorAt(other->pos, absl::StrCat("'", Sv(CompareOpName(c.op)),
                                                         "' does not take a field on its right"));
      }
      if (p_.slots_[*rhs]->spec.multiplicity != Multiplicity::kOne) {
        return Scanner::ErrorAt(other->pos, absl::StrCat(FieldText(*other),
                                                         " has several values: it cannot be the "
                                                         "right side of a comparison"));
      }
      if (type == ValueType::kIpAddr || type == ValueType::kIpNet) {
        return Scanner::ErrorAt(
            other->pos, absl::StrCat(FieldText(c.field), " compares with address literals only"));
      }
      if (rhs_type != type || type == ValueType::kStringList) {
        return Scanner::ErrorAt(
            other->pos, absl::StrCat(FieldText(c.field), " is ", Sv(ValueTypeName(type)), " but ",
                                     FieldText(*other), " is ", Sv(ValueTypeName(rhs_type))));
      }
      n->rhs_slot = *rhs;
      absl::StrAppend(&key, "f", *rhs);
    }
    return p_.Intern(std::move(key), std::move(n));
  }

  // `op oneof|anyof|allof (items)`: one prepared comparison per item, in
  // the order written (oneof counts repeats).
  absl::StatusOr<uint32_t> CompileModified(const Comparison& c, uint32_t slot, ValueType type,
                                           const SourcePos& pos) {
    const auto* items = std::get_if<std::vector<Literal>>(&c.operand.value);
    if (!TakesModifier(c.op) || items == nullptr) {
      return Scanner::ErrorAt(pos, absl::StrCat("'", Sv(ModifierName(c.modifier)),
                                                "' follows =, !=, contains, startswith and the "
                                                "other string operators, with a list"));
    }
    if (items->empty()) return Const(false);  // no item holds, as in Falco
    auto n = std::make_unique<Node>();
    n->kind = NodeKind::kCompare;
    n->slot = slot;
    n->op = c.op;
    n->modifier = c.modifier;
    std::string key = absl::StrCat("c", slot, ":", static_cast<int>(c.op), ":m",
                                   static_cast<int>(c.modifier), ":");
    // `== anyof` is `in`, `!= allof` is `not in`: a hash set decides.
    const bool as_set = (c.modifier == Modifier::kAnyOf && c.op == CompareOp::kEq) ||
                        (c.modifier == Modifier::kAllOf && c.op == CompareOp::kNe);
    for (const Literal& item : *items) {
      auto one = std::make_unique<Node>();
      one->kind = NodeKind::kCompare;
      one->slot = slot;
      one->op = c.op;
      if (absl::Status s = PrepareLiteral(item, type, c.field, *one); !s.ok()) return s;
      if (as_set && type == ValueType::kString) n->strings.insert(item.text);
      if (as_set && type == ValueType::kInt) n->ints.insert(one->i);
      if (as_set && type == ValueType::kUint) n->uints.insert(one->u);
      n->items.push_back(std::move(one));
      absl::StrAppend(&key, item.text, "\x1f");
    }
    return p_.Intern(std::move(key), std::move(n));
  }

  // Counts nesting while SlotFor runs, bounding its recursion.
  struct DepthCount {
    explicit DepthCount(int& d) : depth(d) { ++depth; }
    ~DepthCount() { --depth; }
    int& depth;
  };

  FilterProgram& p_;
  const FieldResolver& fields_;
  int depth_ = 0;
};

absl::StatusOr<FilterProgram::ConditionId> FilterProgram::Add(const Expr& condition,
                                                              const FieldResolver& fields) {
  absl::StatusOr<uint32_t> root = Compiler(*this, fields).Compile(condition);
  if (!root.ok()) return root.status();
  roots_.push_back(*root);
  return static_cast<ConditionId>(roots_.size() - 1);
}

std::string_view ValueTypeName(ValueType t) {
  switch (t) {
    case ValueType::kString:
      return "a string";
    case ValueType::kInt:
      return "a signed number";
    case ValueType::kUint:
      return "an unsigned number";
    case ValueType::kBool:
      return "a boolean";
    case ValueType::kStringList:
      return "a list of strings";
    case ValueType::kIpAddr:
      return "an IP address";
    case ValueType::kIpNet:
      return "an IP network";
    case ValueType::kDouble:
      return "a decimal number";
  }
  return "?";
}

}  // namespace kestrel::engine::filter
