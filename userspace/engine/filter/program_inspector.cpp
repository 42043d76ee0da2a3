#include "engine/filter/program_inspector.h"

#include "engine/filter/program_nodes.h"

namespace kestrel::engine::filter {
namespace {

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
    default:
      return std::nullopt;
  }
  return p;
}

}  // namespace

std::vector<KeyPredicate> ProgramInspector::KeyPredicates(const FilterProgram& program,
                                                          FilterProgram::ConditionId id,
                                                          std::optional<uint32_t> skip_field) {
  const uint32_t root = program.roots_[id];
  const Node& top = *program.nodes_[root];
  const std::vector<uint32_t> conjuncts =
      top.kind == NodeKind::kAnd ? top.children : std::vector<uint32_t>{root};
  std::vector<KeyPredicate> out;
  for (const uint32_t c : conjuncts) {
    const Node& n = *program.nodes_[c];
    if (n.kind != NodeKind::kCompare) continue;
    const Slot& slot = *program.slots_[n.slot];
    if (skip_field && slot.spec.id == *skip_field && slot.transformers.empty()) continue;
    if (std::optional<KeyPredicate> p = AsKeyPredicate(n, slot)) out.push_back(*std::move(p));
  }
  return out;
}

std::optional<std::string_view> ProgramInspector::ReadString(FilterProgram& program,
                                                             uint32_t slot) {
  const FieldValue* v = program.Read(slot);
  if (v == nullptr) return std::nullopt;
  return v->str;
}

}  // namespace kestrel::engine::filter
