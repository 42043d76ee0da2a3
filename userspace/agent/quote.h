// How every message of Kestrel's shows text it was given: a value named in
// double quotes, with control bytes, quotes and backslashes escaped, so a
// hostile argument, file name or rule name cannot forge terminal output.
#ifndef KESTREL_AGENT_QUOTE_H_
#define KESTREL_AGENT_QUOTE_H_

#include <string>
#include <string_view>

#include "absl/strings/escaping.h"
#include "engine/output/escape.h"

namespace kestrel::agent {

inline std::string Quote(std::string_view text) {
  return "\"" + absl::CHexEscape(absl::string_view(text.data(), text.size())) + "\"";
}

// Text from a file or a traced process, escaped as every output of
// Kestrel's escapes it (engine/output/escape.h), unquoted: for lines that
// print it whole, such as a rules file's diagnostics.
inline std::string Escaped(std::string_view text) {
  std::string out;
  engine::AppendTextEscaped(out, text);
  return out;
}

}  // namespace kestrel::agent

#endif  // KESTREL_AGENT_QUOTE_H_
