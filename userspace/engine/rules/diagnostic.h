// A problem found while loading rules files, located for the person who
// wrote them: file, line and column (1-based) and the item it is about.
#ifndef KESTREL_ENGINE_RULES_DIAGNOSTIC_H_
#define KESTREL_ENGINE_RULES_DIAGNOSTIC_H_

#include <cstdint>
#include <string>

namespace kestrel::engine::rules {

struct Diagnostic {
  enum class Severity { kWarning, kError };

  Severity severity = Severity::kError;
  std::string file;
  uint32_t line = 0;  // 0 when the problem has no place in a file
  uint32_t column = 0;
  std::string item;  // "rule 'X'", "macro 'Y'", "list 'Z'", or empty
  std::string message;

  // "file:line:col: warning: rule 'X': message", the form compilers use, so
  // editors jump to the place.
  std::string ToString() const;
};

}  // namespace kestrel::engine::rules

#endif  // KESTREL_ENGINE_RULES_DIAGNOSTIC_H_
