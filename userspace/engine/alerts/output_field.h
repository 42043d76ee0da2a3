// One field of an alert's output_fields: the value as text, and enough of
// its type for JSON to write numbers and booleans as Falco does.
#ifndef KESTREL_ENGINE_ALERTS_OUTPUT_FIELD_H_
#define KESTREL_ENGINE_ALERTS_OUTPUT_FIELD_H_

#include <optional>
#include <string>
#include <vector>

namespace kestrel::engine::alerts {

enum class FieldJsonKind {
  kString,  // a JSON string (escaped for JSON, whatever its bytes)
  kNumber,  // the text is a decimal integer: written bare
  kBool,    // the text is "true" or "false": written bare
};

struct OutputField {
  std::string name;                  // `proc.name`, `proc.aname[2]`, `tolower(fd.name)`
  std::optional<std::string> value;  // raw bytes, unescaped; nullopt: no value (JSON null)
  FieldJsonKind kind = FieldJsonKind::kString;

  bool operator==(const OutputField&) const = default;
};

using OutputFields = std::vector<OutputField>;

}  // namespace kestrel::engine::alerts

#endif  // KESTREL_ENGINE_ALERTS_OUTPUT_FIELD_H_
