// What tolower(), toupper(), b64(), basename() and len() do to a value,
// and to its type.
#ifndef KESTREL_ENGINE_FILTER_TRANSFORMERS_H_
#define KESTREL_ENGINE_FILTER_TRANSFORMERS_H_

#include <optional>
#include <string>

#include "engine/filter/ast.h"
#include "engine/filter/field_binding.h"

namespace kestrel::engine::filter {

// The type `t` has after the transformer, or nullopt when the transformer
// does not take that type (len() takes strings and lists; the others
// strings only).
std::optional<ValueType> TransformedType(Transformer t, ValueType in);

// Applies `t` to `value` of type `in`. New bytes go to `scratch`, with
// `spare` as a second buffer for transformers that cannot work in place;
// both keep their capacity between events, so warm evaluation allocates
// nothing. False when the value cannot be transformed (b64() of text that
// is not base64): the field then has no value.
bool ApplyTransformer(Transformer t, ValueType in, FieldValue& value, std::string& scratch,
                      std::string& spare);

}  // namespace kestrel::engine::filter

#endif  // KESTREL_ENGINE_FILTER_TRANSFORMERS_H_
