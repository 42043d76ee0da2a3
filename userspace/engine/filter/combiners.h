// What join(), concat() and getopt() make of their arguments' values, and
// the value of a literal or of a list given as a transformer's argument.
#ifndef KESTREL_ENGINE_FILTER_COMBINERS_H_
#define KESTREL_ENGINE_FILTER_COMBINERS_H_

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/filter/ast.h"
#include "engine/filter/field_binding.h"

namespace kestrel::engine::filter {

// The bytes a made value points into; kept between events for their
// capacity, so warm evaluation allocates nothing.
struct MadeValue {
  std::string text;
  std::vector<std::string> items;
  std::vector<std::string_view> views;
};

// Makes `kind`'s value from `args` (nullptr: that argument has no value
// for this event) of types `types`, the compiler having checked their
// number and types. False when there is no value: an argument is absent,
// or getopt(...)[c] finds no option c. Numbers, booleans and addresses
// inside a list, and join's separator, are used as their text.
bool Combine(Combiner kind, std::string_view literal, std::optional<char> selector,
             std::span<const FieldValue* const> args, std::span<const ValueType> types,
             MadeValue& made, FieldValue& out);

}  // namespace kestrel::engine::filter

#endif  // KESTREL_ENGINE_FILTER_COMBINERS_H_
