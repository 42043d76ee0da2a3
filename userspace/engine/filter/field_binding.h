// What the filter compiler needs from the fields layer, and nothing more:
// resolving a field as a condition names it (once, at compile time) and
// reading its value for the current event (at most once per event).
#ifndef KESTREL_ENGINE_FILTER_FIELD_BINDING_H_
#define KESTREL_ENGINE_FILTER_FIELD_BINDING_H_

#include <cstdint>
#include <span>
#include <string_view>

#include "absl/status/statusor.h"
#include "engine/filter/ast.h"

namespace kestrel::engine::filter {

enum class ValueType {
  kString,      // also paths and buffers: compared as bytes
  kInt,         // signed: evt.res, evt.rawres
  kUint,        // ids, ports, counts, flags
  kBool,        // compared with true/false
  kStringList,  // proc.args, container.mounts: `intersects`, `in`, `contains`
};

std::string_view ValueTypeName(ValueType t);

// A field resolved for one condition: which value to read and its type.
// `id` is the fields layer's own: the compiler only passes it back.
struct FieldSpec {
  uint32_t id = 0;
  ValueType type = ValueType::kString;
};

// Resolves names (`proc.name`, `proc.aname[2]`, `evt.arg.path`). An unknown
// field is an error naming it, so a condition never silently reads nothing.
class FieldResolver {
 public:
  virtual ~FieldResolver() = default;
  // `field.transformers` are the compiler's business: resolve the bare field.
  virtual absl::StatusOr<FieldSpec> Resolve(const FieldRef& field) const = 0;
};

// One field's value for the current event. Views stay valid until the
// event ends.
struct FieldValue {
  std::string_view str;                     // kString
  int64_t i = 0;                            // kInt
  uint64_t u = 0;                           // kUint
  bool b = false;                           // kBool
  std::span<const std::string_view> items;  // kStringList
};

// The current event's fields. Read returns false when the field has no
// value for this event (no fd, a thread not in the table ...): every
// comparison on it is then false, as in Falco, and `exists` is false.
class FieldReader {
 public:
  virtual ~FieldReader() = default;
  virtual bool Read(const FieldSpec& field, FieldValue& out) = 0;
};

}  // namespace kestrel::engine::filter

#endif  // KESTREL_ENGINE_FILTER_FIELD_BINDING_H_
