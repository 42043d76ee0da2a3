#include "engine/rules/diagnostic.h"

#include "absl/strings/str_cat.h"

namespace kestrel::engine::rules {

std::string Diagnostic::ToString() const {
  std::string out = file.empty() ? "<rules>" : file;
  if (line != 0) absl::StrAppend(&out, ":", line, ":", column);
  absl::StrAppend(&out, severity == Severity::kError ? ": error: " : ": warning: ");
  if (!item.empty()) absl::StrAppend(&out, item, ": ");
  absl::StrAppend(&out, message);
  return out;
}

}  // namespace kestrel::engine::rules
