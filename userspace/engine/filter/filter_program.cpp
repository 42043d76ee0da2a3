#include "engine/filter/filter_program.h"

#include <fnmatch.h>

#include <algorithm>

#include "absl/base/attributes.h"
#include "absl/container/inlined_vector.h"
#include "absl/strings/ascii.h"
#include "engine/filter/combiners.h"
#include "engine/filter/program_nodes.h"
#include "engine/filter/scanner.h"
#include "engine/filter/transformers.h"

namespace kestrel::engine::filter {
namespace {

bool StartsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }
bool EndsWith(std::string_view s, std::string_view p) {
  return s.size() >= p.size() && s.substr(s.size() - p.size()) == p;
}

template <typename T>
bool Order(CompareOp op, T a, T b) {
  switch (op) {
    case CompareOp::kEq:
      return a == b;
    case CompareOp::kNe:
      return a != b;
    case CompareOp::kLt:
      return a < b;
    case CompareOp::kLe:
      return a <= b;
    case CompareOp::kGt:
      return a > b;
    case CompareOp::kGe:
      return a >= b;
    default:
      return false;
  }
}

bool Glob(const std::string& pattern, std::string_view value, bool fold, std::string& scratch) {
  scratch.assign(value.data(), value.size());  // fnmatch wants NUL-terminated text
  return fnmatch(pattern.c_str(), scratch.c_str(), fold ? FNM_CASEFOLD : 0) == 0;
}

// A string compared with the string `rhs` (a literal prepared at compile
// time, or another field's value).
bool CompareString(CompareOp op, std::string_view lhs, std::string_view rhs, Node& n) {
  switch (op) {
    case CompareOp::kEq:
    case CompareOp::kNe:
    case CompareOp::kLt:
    case CompareOp::kLe:
    case CompareOp::kGt:
    case CompareOp::kGe:
      return Order(op, lhs, rhs);
    case CompareOp::kContains:
    case CompareOp::kBContains:
      return lhs.find(rhs) != std::string_view::npos;
    case CompareOp::kIContains: {
      n.scratch.assign(lhs.data(), lhs.size());
      absl::AsciiStrToLower(&n.scratch);
      return std::string_view(n.scratch).find(rhs) != std::string_view::npos;
    }
    case CompareOp::kStartsWith:
    case CompareOp::kBStartsWith:
      return StartsWith(lhs, rhs);
    case CompareOp::kEndsWith:
      return EndsWith(lhs, rhs);
    default:
      return false;
  }
}

}  // namespace

FilterProgram::FilterProgram() = default;
FilterProgram::~FilterProgram() = default;

void FilterProgram::BeginEvent(FieldReader& reader) {
  reader_ = &reader;
  ++event_;
}

bool FilterProgram::Matches(ConditionId id) { return Eval(roots_[id]); }

const FieldValue* FilterProgram::Read(uint32_t slot_id) {
  Slot& slot = *slots_[slot_id];
  if (slot.stamp != event_) {
    slot.stamp = event_;
    slot.value.Clear();
    if (slot.combiner) {
      slot.present = Make(slot);
    } else {
      ++field_reads_;
      slot.present = reader_->Read(slot.spec, slot.value);
    }
    if (!slot.transformers.empty()) Transform(slot);
  }
  return slot.present ? &slot.value : nullptr;
}

// Apart from Read (and kept apart): few slots have transformers, and the
// loop's registers made every read's entry and exit dearer.
ABSL_ATTRIBUTE_NOINLINE void FilterProgram::Transform(Slot& slot) {
  ValueType type = slot.spec.type;
  for (const Transformer t : slot.transformers) {
    if (!slot.present) break;
    slot.present = ApplyTransformer(t, type, slot.value, slot.scratch, slot.spare);
    type = *TransformedType(t, type);
  }
}

ABSL_ATTRIBUTE_NOINLINE bool FilterProgram::Make(Slot& slot) {
  absl::InlinedVector<const FieldValue*, 4> args;
  for (const uint32_t arg : slot.args) args.push_back(Read(arg));
  return Combine(*slot.combiner, slot.literal, slot.selector, args, slot.arg_types, slot.made,
                 slot.value);
}

bool FilterProgram::EvalComparison(Node& n) {
  const FieldValue* v = Read(n.slot);
  if (v == nullptr) return false;
  const Slot& slot = *slots_[n.slot];
  const Multiplicity many = slot.spec.multiplicity;
  if (many == Multiplicity::kOne) return n.op == CompareOp::kExists || EvalValue(n, slot.type, *v);

  // Several values: the comparison is made with each.
  const size_t count = slot.type == ValueType::kInt    ? v->ints.size()
                       : slot.type == ValueType::kUint ? v->uints.size()
                                                       : v->items.size();
  if (n.op == CompareOp::kExists) return count > 0;
  const bool every = many == Multiplicity::kEitherEnd && n.op == CompareOp::kNe;
  FieldValue one;
  for (size_t i = 0; i < count; ++i) {
    if (slot.type == ValueType::kInt) {
      one.i = v->ints[i];
    } else if (slot.type == ValueType::kUint) {
      one.u = v->uints[i];
    } else {
      one.str = v->items[i];
    }
    const bool holds = EvalValue(n, slot.type, one);
    if (holds != every) return holds;
  }
  // No value: `!=` holds (an address no watched name resolves to).
  return every;
}

// oneof: exactly one item holds; anyof: at least one; allof: every one.
bool FilterProgram::EvalModified(Node& n, ValueType type, const FieldValue& value) {
  if (!n.strings.empty() || !n.ints.empty() || !n.uints.empty()) {
    const bool in = type == ValueType::kString ? n.strings.contains(Sv(value.str))
                    : type == ValueType::kInt  ? n.ints.contains(value.i)
                                               : n.uints.contains(value.u);
    return n.op == CompareOp::kEq ? in : !in;
  }
  size_t holding = 0;
  for (const std::unique_ptr<Node>& item : n.items) {
    const bool holds = EvalValue(*item, type, value);
    if (n.modifier == Modifier::kAnyOf && holds) return true;
    if (n.modifier == Modifier::kAllOf && !holds) return false;
    if (n.modifier == Modifier::kOneOf && holds && ++holding > 1) return false;
  }
  return n.modifier == Modifier::kOneOf ? holding == 1 : n.modifier == Modifier::kAllOf;
}

bool FilterProgram::EvalValue(Node& n, ValueType type, const FieldValue& value) {
  if (n.modifier != Modifier::kNone) return EvalModified(n, type, value);
  const FieldValue* v = &value;
  if (n.rhs_slot) {
    const FieldValue* r = Read(*n.rhs_slot);
    if (r == nullptr) return false;
    switch (type) {
      case ValueType::kString:
        return CompareString(n.op, v->str, r->str, n);
      case ValueType::kInt:
        return Order(n.op, v->i, r->i);
      case ValueType::kUint:
        return Order(n.op, v->u, r->u);
      case ValueType::kBool:
        return Order(n.op, v->b, r->b);
      case ValueType::kDouble:
        return Order(n.op, v->d, r->d);
      case ValueType::kStringList:
      case ValueType::kIpAddr:
      case ValueType::kIpNet:
        return false;  // refused at compile time
    }
    return false;
  }
  switch (type) {
    case ValueType::kString:
      switch (n.op) {
        case CompareOp::kIn:
        case CompareOp::kIntersects:
          return n.strings.contains(Sv(v->str));
        case CompareOp::kPmatch:
          return n.prefixes.Matches(v->str);
        case CompareOp::kGlob:
        case CompareOp::kIGlob:
          return Glob(n.text, v->str, n.op == CompareOp::kIGlob, n.scratch);
        case CompareOp::kRegex:
          return re2::RE2::FullMatch(re2::StringPiece(v->str.data(), v->str.size()), *n.regex);
        default:
          return CompareString(n.op, v->str, n.text, n);
      }
    case ValueType::kInt:
      if (n.op == CompareOp::kIn || n.op == CompareOp::kIntersects) return n.ints.contains(v->i);
      return Order(n.op, v->i, n.i);
    case ValueType::kUint:
      if (n.op == CompareOp::kIn || n.op == CompareOp::kIntersects) return n.uints.contains(v->u);
      return Order(n.op, v->u, n.u);
    case ValueType::kBool:
      if (n.op == CompareOp::kIn || n.op == CompareOp::kIntersects) {
        return n.uints.contains(v->b ? 1 : 0);
      }
      return Order(n.op, v->b, n.b);
    case ValueType::kDouble:
      if (n.op == CompareOp::kIn || n.op == CompareOp::kIntersects) {
        return std::find(n.doubles.begin(), n.doubles.end(), v->d) != n.doubles.end();
      }
      return Order(n.op, v->d, n.d);
    case ValueType::kStringList: {
      // in: every item is in the set; intersects: some item is.
      const auto in_set = [&](std::string_view item) { return n.strings.contains(Sv(item)); };
      if (n.op == CompareOp::kIn) return std::all_of(v->items.begin(), v->items.end(), in_set);
      return std::any_of(v->items.begin(), v->items.end(), in_set);
    }
    case ValueType::kIpAddr:
    case ValueType::kIpNet: {
      // A value that is no address differs from every address, as in Falco.
      const std::optional<IpAddress> a = ParseIpAddress(v->str);
      const bool in = a && std::any_of(n.nets.begin(), n.nets.end(),
                                       [&](const IpNetwork& net) { return net.Contains(*a); });
      return n.op == CompareOp::kNe ? !in : in;
    }
  }
  return false;
}

bool FilterProgram::Eval(uint32_t id) {
  if (node_stamp_[id] == event_) return node_result_[id];
  Node& n = *nodes_[id];
  bool result = false;
  switch (n.kind) {
    case NodeKind::kConst:
      result = n.constant;
      break;
    case NodeKind::kCompare:
      result = EvalComparison(n);
      break;
    case NodeKind::kNot:
      result = !Eval(n.children[0]);
      break;
    case NodeKind::kAnd:
      result =
          std::all_of(n.children.begin(), n.children.end(), [this](uint32_t c) { return Eval(c); });
      break;
    case NodeKind::kOr:
      result =
          std::any_of(n.children.begin(), n.children.end(), [this](uint32_t c) { return Eval(c); });
      break;
  }
  node_stamp_[id] = event_;
  node_result_[id] = result;
  return result;
}

// NOLINTNEXTLINE(performance-unnecessary-value-param): key is moved in; v14 misses absl emplace
uint32_t FilterProgram::Intern(std::string key, std::unique_ptr<Node> node) {
  if (const auto it = node_index_.find(key); it != node_index_.end()) return it->second;
  const auto id = static_cast<uint32_t>(nodes_.size());
  nodes_.push_back(std::move(node));
  node_stamp_.push_back(0);
  node_result_.push_back(0);
  node_index_.emplace(std::move(key), id);
  return id;
}

}  // namespace kestrel::engine::filter
