// A rule's `output` string, compiled once when the rule loads: literal text
// and field references, written as Falco writes them: `%proc.name`,
// `%(proc.name)`, `%proc.aname[2]`, `%tolower(fd.name)`, and `%20proc.name`
// (the value padded or cut to 20 characters). Every field is resolved at
// compile time, so a misspelt field is an error naming it, never an alert
// that silently prints nothing.
#ifndef KESTREL_ENGINE_ALERTS_OUTPUT_FORMAT_H_
#define KESTREL_ENGINE_ALERTS_OUTPUT_FORMAT_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/alerts/output_field.h"
#include "engine/filter/ast.h"
#include "engine/filter/field_binding.h"

namespace kestrel::engine::alerts {

// What Falco prints for a field that has no value for the event.
inline constexpr std::string_view kNotAvailable = "<NA>";

// One of append_output's extra_fields: a key of output_fields that is not in
// the output line. `raw`: the key is a field's name and the value that
// field's, typed (a number stays a number); otherwise `format` is rendered
// as text (`%user.name`, `${HOME}` already expanded, literal text).
struct ExtraField {
  std::string key;
  std::string format;
  bool raw = false;

  bool operator==(const ExtraField&) const = default;
};

class OutputFormat {
 public:
  // `format` is trimmed of blanks and newlines at both ends, as Falco trims
  // a rule's output. `fields` resolves each reference; an unknown field, a `%` with no field
  // after it or an unclosed `%(` is an InvalidArgument naming the column.
  // `extra` adds keys to output_fields (after the references', replacing
  // one of the same name); a bad one is an error naming its key.
  static absl::StatusOr<OutputFormat> Compile(std::string_view format,
                                              const filter::FieldResolver& fields,
                                              const std::vector<ExtraField>& extra = {});

  // Renders the current event: `text` gets the line (values escaped as the
  // output layer escapes strings from traced processes, `<NA>` for a
  // missing one), `raw` (when given) the same line with the values as they
  // are (what Falco's JSON `output` holds; JSON escapes it), and `fields`
  // one entry per distinct reference, in the order they first appear, then
  // the extra fields. All are cleared first.
  void Render(filter::FieldReader& reader, std::string& text, OutputFields& fields,
              std::string* raw = nullptr) const;

  // The references as written (`proc.name`, `tolower(fd.name)`), in order,
  // without repeats, then the extra fields' keys: the keys of Render's
  // `fields`.
  std::vector<std::string> FieldNames() const;

 private:
  struct Reference {
    std::string name;  // the key in output_fields, as Falco spells it
    filter::FieldSpec spec;
    std::vector<filter::Transformer> transformers;        // innermost first
    filter::ValueType type = filter::ValueType::kString;  // after transformers
    uint32_t width = 0;                                   // 0: as long as the value
  };
  // Literal text, or a reference to refs_[ref].
  struct Piece {
    std::string literal;
    int ref = -1;
  };

  bool Read(const Reference& ref, filter::FieldReader& reader, filter::FieldValue& value) const;

  std::vector<Piece> pieces_;
  std::vector<Reference> refs_;
  // extra_fields: each key's compiled format (a raw one's is `%key`).
  std::vector<ExtraField> extra_;
  std::vector<OutputFormat> extra_formats_;
  // Render's transformer scratch: rendering is per event, on one thread.
  mutable std::string scratch_;
  mutable std::string spare_;
};

}  // namespace kestrel::engine::alerts

#endif  // KESTREL_ENGINE_ALERTS_OUTPUT_FORMAT_H_
