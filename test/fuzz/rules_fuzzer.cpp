// Arbitrary text as a rules file: the YAML reader, lists, macros,
// append/override merges, exceptions, condition substitution and the
// compiler with Kestrel's real field registry, then the syscall analysis of
// what loaded. Errors are expected; crashes, hangs and unbounded recursion
// (macros that name each other) are not.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "engine/fields/field_registry.h"
#include "engine/rules/ruleset.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  namespace rules = kestrel::engine::rules;
  static const auto* registry = new kestrel::engine::fields::FieldRegistry();
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<rules::Diagnostic> diags;
  auto set = rules::Ruleset::LoadText(text, "fuzz.yaml", {}, *registry, &diags);
  for (const rules::Diagnostic& d : diags) (void)d.ToString();
  if (!set.ok()) return 0;
  (void)(*set)->Syscalls();
  for (const rules::Rule& rule : (*set)->rules()) {
    for (const std::string& tag : rule.tags) (*set)->SetEnabledByTag(tag, false);
  }
  (void)(*set)->Syscalls();
  return 0;
}
