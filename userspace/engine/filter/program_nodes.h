// The parts a FilterProgram is made of, shared by its compiler and its
// evaluator; nothing outside the filter folder includes this.
#ifndef KESTREL_ENGINE_FILTER_PROGRAM_NODES_H_
#define KESTREL_ENGINE_FILTER_PROGRAM_NODES_H_

#include <re2/re2.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "engine/filter/ast.h"
#include "engine/filter/combiners.h"
#include "engine/filter/field_binding.h"
#include "engine/filter/ip_network.h"
#include "engine/filter/path_prefix_set.h"

namespace kestrel::engine::filter {

// A field under its transformers, read at most once per event; or a value
// made of other slots (join, concat, getopt, a literal, a list).
struct Slot {
  FieldSpec spec;                         // spec.type: the value's type before the transformers
  std::vector<Transformer> transformers;  // innermost first
  ValueType type = ValueType::kString;    // after the transformers

  std::optional<Combiner> combiner;  // set: the value is made, not read
  std::vector<uint32_t> args;        // the combiner's argument slots
  std::vector<ValueType> arg_types;
  std::string literal;           // kLiteral's text
  std::optional<char> selector;  // getopt(...)[c]
  MadeValue made;

  // The current event's value, valid while stamp equals the program's event.
  uint64_t stamp = 0;
  bool present = false;
  FieldValue value;
  std::string scratch;
  std::string spare;
};

enum class NodeKind { kConst, kCompare, kNot, kAnd, kOr };

struct Node {
  NodeKind kind = NodeKind::kConst;
  bool constant = false;           // kConst
  std::vector<uint32_t> children;  // kNot: one; kAnd, kOr: two or more

  // kCompare: slot `slot` compared by `op` with the operand prepared below.
  uint32_t slot = 0;
  CompareOp op = CompareOp::kExists;
  // oneof / anyof / allof: `items` holds one prepared comparison per list
  // item (`== anyof` and `!= allof` use `strings`, `ints` or `uints`).
  Modifier modifier = Modifier::kNone;
  std::vector<std::unique_ptr<Node>> items;
  std::optional<uint32_t> rhs_slot;  // val(field) / transformer(field)
  std::string text;                  // one string literal (bytes for b*, lower-cased for i*)
  int64_t i = 0;
  uint64_t u = 0;
  bool b = false;
  double d = 0;
  absl::flat_hash_set<std::string> strings;  // in / intersects
  std::vector<double> doubles;               // kDouble's in / intersects
  absl::flat_hash_set<int64_t> ints;
  absl::flat_hash_set<uint64_t> uints;
  std::vector<IpNetwork> nets;      // kIpAddr, kIpNet: an address is a network of one
  PathPrefixSet prefixes;           // pmatch
  std::unique_ptr<re2::RE2> regex;  // regex
  std::string scratch;              // glob's NUL-terminated copy, icontains' lower-cased copy
};

}  // namespace kestrel::engine::filter

#endif  // KESTREL_ENGINE_FILTER_PROGRAM_NODES_H_
