#include "engine/filter/program_inspector.h"

#include <string_view>

#include "engine/filter/program_nodes.h"

namespace kestrel::engine::filter {
namespace {

// A glob's literal start (before its first wildcard, class or escape) or,
// failing that, its literal end (after its last): a value the glob matches
// begins or ends with it, fnmatch without flags anchoring both ends. Empty
// when the glob has neither.
std::optional<KeyPredicate> GlobKey(const std::string& pattern) {
  constexpr std::string_view kSpecial = "*?[]\\";
  KeyPredicate p;
  const size_t first = pattern.find_first_of(kSpecial);
  if (first == std::string::npos) {  // no wildcard: the glob is equality
    p.values = {pattern};
    return p;
  }
  if (first > 0) {
    p.kind = KeyPredicate::Kind::kPrefix;
    p.values = {pattern.substr(0, first)};
    return p;
  }
  const size_t last = pattern.find_last_of(kSpecial);
  if (last + 1 < pattern.size()) {
    p.kind = KeyPredicate::Kind::kSuffix;
    p.values = {pattern.substr(last + 1)};
    return p;
  }
  return std::nullopt;
}

std::optional<KeyPredicate> AsKeyPredicate(const Node& n, const Slot& slot) {
  if (n.kind != NodeKind::kCompare || n.rhs_slot) return std::nullopt;
  if (slot.type != ValueType::kString || slot.spec.multiplicity != Multiplicity::kOne) {
    return std::nullopt;
  }
  KeyPredicate p;
  p.slot = n.slot;
  switch (n.op) {
    case CompareOp::kEq:
      p.values = {n.text};
      break;
    case CompareOp::kIn:
      p.values.assign(n.strings.begin(), n.strings.end());
      break;
    case CompareOp::kStartsWith:
    case CompareOp::kBStartsWith:
      p.kind = KeyPredicate::Kind::kPrefix;
      p.values = {n.text};
      break;
    case CompareOp::kEndsWith:
      p.kind = KeyPredicate::Kind::kSuffix;
      p.values = {n.text};
      break;
    case CompareOp::kContains:
    case CompareOp::kBContains:
      if (n.text.empty()) return std::nullopt;
      p.kind = KeyPredicate::Kind::kContains;
      p.values = {n.text};
      break;
    case CompareOp::kGlob: {
      std::optional<KeyPredicate> key = GlobKey(n.text);
      if (!key) return std::nullopt;
      key->slot = n.slot;
      return key;
    }
    default:
      return std::nullopt;
  }
  return p;
}

}  // namespace

namespace {

// The top-level conjuncts of condition `root`: its children when it is an
// `and`, else itself.
std::vector<uint32_t> Conjuncts(const std::vector<std::unique_ptr<Node>>& nodes, uint32_t root) {
  const Node& top = *nodes[root];
  return top.kind == NodeKind::kAnd ? top.children : std::vector<uint32_t>{root};
}

bool ReadsSkipped(const Slot& slot, std::optional<uint32_t> skip_field) {
  return skip_field && slot.spec.id == *skip_field && slot.transformers.empty();
}

}  // namespace

std::vector<KeyConjunct> ProgramInspector::KeyConjuncts(const FilterProgram& program,
                                                        FilterProgram::ConditionId id,
                                                        std::optional<uint32_t> skip_field) {
  // The key predicate of comparison node `c`, if it is one.
  const auto key_of = [&](uint32_t c) -> std::optional<KeyPredicate> {
    const Node& n = *program.nodes_[c];
    if (n.kind != NodeKind::kCompare) return std::nullopt;
    return AsKeyPredicate(n, *program.slots_[n.slot]);
  };
  std::vector<KeyConjunct> out;
  for (const uint32_t c : Conjuncts(program.nodes_, program.roots_[id])) {
    const Node& n = *program.nodes_[c];
    if (n.kind == NodeKind::kCompare) {
      if (ReadsSkipped(*program.slots_[n.slot], skip_field)) continue;
      if (std::optional<KeyPredicate> p = key_of(c)) out.push_back({{*std::move(p)}});
      continue;
    }
    if (n.kind != NodeKind::kOr) continue;
    KeyConjunct any;
    for (const uint32_t branch : n.children) {
      const Node& b = *program.nodes_[branch];
      std::optional<KeyPredicate> p = key_of(branch);
      if (!p || ReadsSkipped(*program.slots_[b.slot], skip_field)) {
        any.alternatives.clear();
        break;
      }
      any.alternatives.push_back(*std::move(p));
    }
    if (!any.alternatives.empty()) out.push_back(std::move(any));
  }
  return out;
}

}  // namespace kestrel::engine::filter
