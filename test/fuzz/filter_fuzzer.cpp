// Arbitrary text as a condition: the scanner, the parser and, for what
// parses, the compiler with Kestrel's real field registry. Errors are
// expected; crashes, hangs and unbounded recursion are not.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "engine/fields/field_registry.h"
#include "engine/filter/filter_program.h"
#include "engine/filter/parser.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const auto* registry = new kestrel::engine::fields::FieldRegistry();
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto expr = kestrel::engine::filter::ParseCondition(text);
  if (!expr.ok()) return 0;
  kestrel::engine::filter::FilterProgram program;
  (void)program.Add(**expr, *registry);
  return 0;
}
