// What a rule index needs to see inside a compiled FilterProgram: the
// top-level conjuncts of a condition that name exact strings or string
// affixes of one field, and that field's value for the current event
// (through the program's own per-event slot cache, so a field the index
// reads is not read again by the conditions).
#ifndef KESTREL_ENGINE_FILTER_PROGRAM_INSPECTOR_H_
#define KESTREL_ENGINE_FILTER_PROGRAM_INSPECTOR_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/filter/filter_program.h"

namespace kestrel::engine::filter {

// A conjunct `slot = v`, `slot in (v1, v2 ...)`, `slot startswith v` or
// `slot endswith v` of a condition's top-level `and`, on a string field of
// one value: the condition can only hold when the current event's value of
// `slot` is one of `values` (or has one as its prefix or suffix).
struct KeyPredicate {
  enum class Kind { kEquals, kPrefix, kSuffix, kContains };
  uint32_t slot = 0;
  Kind kind = Kind::kEquals;
  std::vector<std::string> values;
};

// A conjunct of a condition's top-level `and` that can only hold when one of
// `alternatives` does: a key predicate alone, or an `or` each of whose
// branches is one (Falco's `sensitive_files`: `fd.name in (...) or
// fd.directory in (...)`), on the same field or not.
struct KeyConjunct {
  std::vector<KeyPredicate> alternatives;
};

class ProgramInspector {
 public:
  // The key conjuncts of condition `id`: its key predicates, each one
  // alternative, and its `or` conjuncts whose every branch is a key
  // predicate. Predicates on a slot that reads field `skip_field`
  // untransformed (evt.type: the index by syscall already has it) are left
  // out, and an `or` with such a branch is none: that branch alone may hold.
  static std::vector<KeyConjunct> KeyConjuncts(const FilterProgram& program,
                                               FilterProgram::ConditionId id,
                                               std::optional<uint32_t> skip_field);

  // The current event's value of string slot `slot`, in the slot's cache;
  // null when it has none. Inline: an index reads several slots on every
  // event. A pointer, not a copy: the value was stored a moment ago as two
  // words, and copying it whole (one 16-byte load) stalled on store
  // forwarding.
  static const std::string_view* ReadString(FilterProgram& program, uint32_t slot) {
    const FieldValue* v = program.Read(slot);
    return v != nullptr ? &v->str : nullptr;
  }
};

}  // namespace kestrel::engine::filter

#endif  // KESTREL_ENGINE_FILTER_PROGRAM_INSPECTOR_H_
