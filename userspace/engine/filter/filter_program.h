// Conditions compiled together into one program evaluated per event.
//
// Every condition added to a program shares its parts with those already
// there: a field under the same transformers is one *slot*, read at most
// once per event however many comparisons use it; a comparison, `not`,
// `and` or `or` that two conditions share (a macro used by forty rules) is
// one *node*, evaluated at most once per event. Operands are prepared at
// compile time: `in` lists become hash sets, `pmatch` lists a set of path
// prefixes, regexes compiled RE2 programs, numbers parsed, and constant
// parts folded. Evaluating allocates nothing once the scratch buffers are
// warm.
#ifndef KESTREL_ENGINE_FILTER_FILTER_PROGRAM_H_
#define KESTREL_ENGINE_FILTER_FILTER_PROGRAM_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "engine/filter/ast.h"
#include "engine/filter/field_binding.h"

namespace kestrel::engine::filter {

struct Slot;
struct Node;

class FilterProgram {
 public:
  using ConditionId = uint32_t;

  FilterProgram();
  ~FilterProgram();
  FilterProgram(const FilterProgram&) = delete;
  FilterProgram& operator=(const FilterProgram&) = delete;

  // Compiles `condition` (macros and lists already substituted) into the
  // program. Errors name the place: an unknown field, an operator the
  // field's type does not take, a value that is not of the field's type, a
  // regex that does not compile, a macro or list left unsubstituted.
  absl::StatusOr<ConditionId> Add(const Expr& condition, const FieldResolver& fields);

  // Starts a new event, read through `reader` until the next call.
  void BeginEvent(FieldReader& reader);

  // Whether condition `id` holds for the current event.
  bool Matches(ConditionId id);

  // The program's size: distinct nodes and distinct slots, across every
  // condition added.
  size_t node_count() const { return nodes_.size(); }
  size_t slot_count() const { return slots_.size(); }

  // Field reads since the program was made: at most one per slot per event.
  uint64_t field_reads() const { return field_reads_; }

 private:
  friend class Compiler;
  friend class ProgramInspector;

  uint32_t Intern(std::string key, std::unique_ptr<Node> node);
  bool Eval(uint32_t node);
  bool EvalComparison(Node& n);
  bool EvalValue(Node& n, ValueType type, const FieldValue& value);
  bool EvalModified(Node& n, ValueType type, const FieldValue& value);
  const FieldValue* Read(uint32_t slot);
  bool Make(Slot& slot);
  static void Transform(Slot& slot);

  std::vector<std::unique_ptr<Slot>> slots_;
  absl::flat_hash_map<std::string, uint32_t> slot_index_;
  std::vector<std::unique_ptr<Node>> nodes_;
  absl::flat_hash_map<std::string, uint32_t> node_index_;
  std::vector<uint32_t> roots_;

  // Per event: a node's or slot's memo is valid while its stamp equals
  // event_; bumping event_ invalidates all of them at once.
  uint64_t event_ = 0;
  std::vector<uint64_t> node_stamp_;
  std::vector<uint8_t> node_result_;
  FieldReader* reader_ = nullptr;
  uint64_t field_reads_ = 0;
};

}  // namespace kestrel::engine::filter

#endif  // KESTREL_ENGINE_FILTER_FILTER_PROGRAM_H_
