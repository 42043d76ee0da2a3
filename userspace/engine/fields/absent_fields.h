// libsinsp's syscall-source fields that Kestrel deliberately does not
// offer, each with the reason: a rule naming one is told why at load, and
// `kestrel fields --absent` lists them (docs/design/fields.md shows the
// same table; a test holds the two together).
#ifndef KESTREL_ENGINE_FIELDS_ABSENT_FIELDS_H_
#define KESTREL_ENGINE_FIELDS_ABSENT_FIELDS_H_

#include <span>
#include <string_view>

namespace kestrel::engine::fields {

struct AbsentField {
  std::string_view name;  // as Falco spells it; a name ending in "." covers its arguments
  std::string_view why;
};

std::span<const AbsentField> AbsentFields();

// The reason `name` is left out, or empty when it is not one of Falco's
// fields Kestrel leaves out.
std::string_view WhyAbsent(std::string_view name);

}  // namespace kestrel::engine::fields

#endif  // KESTREL_ENGINE_FIELDS_ABSENT_FIELDS_H_
