// A field's value as text, the way Falco prints it in outputs and `%field`:
// numbers in decimal, booleans true/false, addresses as written, and the
// values of a list or of a field with several values space separated.
// Unescaped: the caller escapes for where the text goes.
#ifndef KESTREL_ENGINE_FILTER_VALUE_TEXT_H_
#define KESTREL_ENGINE_FILTER_VALUE_TEXT_H_

#include <string>

#include "engine/filter/field_binding.h"

namespace kestrel::engine::filter {

void AppendValueText(ValueType type, Multiplicity multiplicity, const FieldValue& value,
                     std::string& out);

}  // namespace kestrel::engine::filter

#endif  // KESTREL_ENGINE_FILTER_VALUE_TEXT_H_
