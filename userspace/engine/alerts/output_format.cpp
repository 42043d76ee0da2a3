#include "engine/alerts/output_format.h"

#include <algorithm>
#include <cctype>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "engine/filter/scanner.h"
#include "engine/filter/transformers.h"
#include "engine/filter/value_text.h"
#include "engine/output/escape.h"

namespace kestrel::engine::alerts {
namespace {

using filter::Sv;

bool IsNameStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool IsNameChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// A field reference as written after '%', before it is resolved.
struct ParsedRef {
  filter::FieldRef field;
  std::string written;  // `proc.name`, `proc.aname[2]`, `tolower(fd.name)`
};

class RefParser {
 public:
  RefParser(std::string_view text, size_t at) : text_(text), at_(at) {}
  size_t at() const { return at_; }

  // A dotted name: parts start with a letter or '_'.
  std::string Name() {
    size_t n = at_;
    if (n >= text_.size() || !IsNameStart(text_[n])) return {};
    while (n < text_.size() && IsNameChar(text_[n])) ++n;
    while (n + 1 < text_.size() && text_[n] == '.' && IsNameStart(text_[n + 1])) {
      ++n;
      while (n < text_.size() && IsNameChar(text_[n])) ++n;
    }
    std::string name(text_.substr(at_, n - at_));
    at_ = n;
    return name;
  }

  bool Try(char c) {
    if (at_ < text_.size() && text_[at_] == c) {
      ++at_;
      return true;
    }
    return false;
  }

  // A field, or transformers around one: `tolower(basename(fd.name))`.
  absl::StatusOr<ParsedRef> FieldOrTransformer() {
    const size_t start = at_;
    std::string name = Name();
    if (name.empty()) return Error(start, "expected a field name after '%'");
    if (auto t = filter::TransformerByName(name); t && Try('(')) {
      absl::StatusOr<ParsedRef> inner = FieldOrTransformer();
      if (!inner.ok()) return inner.status();
      if (!Try(')')) return Error(at_, absl::StrCat("expected ')' to close ", name, "("));
      inner->field.transformers.push_back(*t);
      inner->written = absl::StrCat(name, "(", inner->written, ")");
      return inner;
    }
    ParsedRef ref;
    ref.field.name = name;
    ref.written = name;
    if (Try('[')) {
      const size_t arg_start = at_;
      while (at_ < text_.size() && text_[at_] != ']') ++at_;
      if (at_ >= text_.size()) return Error(arg_start, absl::StrCat("unclosed '[' after ", name));
      ref.field.index = std::string(text_.substr(arg_start, at_ - arg_start));
      ++at_;
      absl::StrAppend(&ref.written, "[", Sv(*ref.field.index), "]");
    }
    return ref;
  }

  absl::Status Error(size_t at, std::string_view what) const {
    return absl::InvalidArgumentError(
        absl::StrCat("output format, column ", at + 1, ": ", Sv(what)));
  }

 private:
  std::string_view text_;
  size_t at_;
};

}  // namespace

absl::StatusOr<OutputFormat> OutputFormat::Compile(std::string_view format,
                                                   const filter::FieldResolver& fields,
                                                   const std::vector<ExtraField>& extra) {
  // As Falco's loader does: a folded YAML string ends with a newline that
  // is no part of the alert.
  const size_t first = format.find_first_not_of(" \t\r\n");
  format = first == std::string_view::npos
               ? std::string_view()
               : format.substr(first, format.find_last_not_of(" \t\r\n") - first + 1);
  OutputFormat out;
  absl::flat_hash_map<std::string, int> ref_index;
  std::string literal;
  auto flush_literal = [&] {
    if (literal.empty()) return;
    out.pieces_.push_back(Piece{std::move(literal), -1});
    literal.clear();
  };

  size_t i = 0;
  while (i < format.size()) {
    if (format[i] != '%') {
      literal.push_back(format[i++]);
      continue;
    }
    const size_t percent = i;
    RefParser p(format, i + 1);
    if (p.at() >= format.size()) return p.Error(percent, "'%' with no field after it");
    uint32_t width = 0;
    while (p.at() < format.size() && std::isdigit(static_cast<unsigned char>(format[p.at()]))) {
      width = width * 10 + static_cast<uint32_t>(format[p.at()] - '0');
      if (width > 65535) return p.Error(percent, "field width above 65535");
      p.Try(format[p.at()]);
    }
    const bool parenthesized = p.Try('(');
    const size_t field_at = p.at();
    absl::StatusOr<ParsedRef> parsed = p.FieldOrTransformer();
    if (!parsed.ok()) return parsed.status();
    if (parenthesized && !p.Try(')')) return p.Error(p.at(), "expected ')' to close '%('");

    // Resolve; Falco takes the longest name that is a field, so
    // "%proc.name.suffix" would read proc.name and keep ".suffix" as text.
    absl::StatusOr<filter::FieldSpec> spec = fields.Resolve(parsed->field);
    size_t end = p.at();
    if (!spec.ok() && !parenthesized && parsed->field.transformers.empty() &&
        !parsed->field.index) {
      std::string name = parsed->field.name;
      for (size_t dot = name.rfind('.'); dot != std::string::npos; dot = name.rfind('.')) {
        name.resize(dot);
        filter::FieldRef shorter = parsed->field;
        shorter.name = name;
        absl::StatusOr<filter::FieldSpec> s = fields.Resolve(shorter);
        if (s.ok()) {
          spec = s;
          end = field_at + name.size();
          parsed->field = shorter;
          parsed->written = name;
          break;
        }
      }
    }
    if (!spec.ok()) {
      return p.Error(field_at,
                     absl::StrCat("field ", parsed->written, ": ", spec.status().message()));
    }

    Reference ref;
    ref.name = parsed->written;
    ref.spec = *spec;
    ref.type = spec->type;
    ref.width = width;
    for (filter::Transformer t : parsed->field.transformers) {
      std::optional<filter::ValueType> next = filter::TransformedType(t, ref.type);
      if (!next) {
        return p.Error(field_at,
                       absl::StrCat(Sv(filter::TransformerName(t)), "() does not take ",
                                    Sv(filter::ValueTypeName(ref.type)), ": ", parsed->written));
      }
      ref.type = *next;
    }
    ref.transformers = parsed->field.transformers;

    flush_literal();
    // Two references to the same field with different widths are two
    // pieces of text but one output field.
    auto [it, added] = ref_index.try_emplace(absl::StrCat(ref.name, "/", width),
                                             static_cast<int>(out.refs_.size()));
    if (added) out.refs_.push_back(std::move(ref));
    out.pieces_.push_back(Piece{{}, it->second});
    i = end;
  }
  flush_literal();
  for (const ExtraField& e : extra) {
    if (e.key.empty()) return absl::InvalidArgumentError("extra field with an empty name");
    absl::StatusOr<OutputFormat> f = Compile(e.raw ? absl::StrCat("%", e.key) : e.format, fields);
    if (!f.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("extra field ", e.key, ": ", f.status().message()));
    }
    if (e.raw && (f->refs_.size() != 1 || f->pieces_.size() != 1)) {
      return absl::InvalidArgumentError(
          absl::StrCat("extra field ", e.key, ": not the name of a field"));
    }
    // A later entry for the same key wins, as in Falco's map of them.
    for (size_t k = 0; k < out.extra_.size(); ++k) {
      if (out.extra_[k].key == e.key) {
        out.extra_.erase(out.extra_.begin() + static_cast<std::ptrdiff_t>(k));
        out.extra_formats_.erase(out.extra_formats_.begin() + static_cast<std::ptrdiff_t>(k));
        break;
      }
    }
    out.extra_.push_back(e);
    out.extra_formats_.push_back(*std::move(f));
  }
  return out;
}

bool OutputFormat::Read(const Reference& ref, filter::FieldReader& reader,
                        filter::FieldValue& value) const {
  if (!reader.Read(ref.spec, value)) return false;
  filter::ValueType type = ref.spec.type;
  for (filter::Transformer t : ref.transformers) {
    if (!filter::ApplyTransformer(t, type, value, scratch_, spare_)) return false;
    type = *filter::TransformedType(t, type);
  }
  return true;
}

namespace {

FieldJsonKind JsonKind(filter::ValueType type) {
  switch (type) {
    case filter::ValueType::kInt:
    case filter::ValueType::kUint:
    case filter::ValueType::kDouble:
      return FieldJsonKind::kNumber;
    case filter::ValueType::kBool:
      return FieldJsonKind::kBool;
    default:
      return FieldJsonKind::kString;
  }
}

}  // namespace

void OutputFormat::Render(filter::FieldReader& reader, std::string& text, OutputFields& fields,
                          std::string* raw_text) const {
  text.clear();
  fields.clear();
  if (raw_text != nullptr) raw_text->clear();
  // Each reference is read once; its raw text serves both the line and
  // output_fields.
  std::vector<std::optional<std::string>> raw(refs_.size());
  for (size_t r = 0; r < refs_.size(); ++r) {
    filter::FieldValue v;
    if (Read(refs_[r], reader, v)) {
      raw[r].emplace();
      filter::AppendValueText(refs_[r].type, refs_[r].spec.multiplicity, v, *raw[r]);
    }
  }
  for (const Piece& piece : pieces_) {
    if (piece.ref < 0) {
      text.append(piece.literal);
      if (raw_text != nullptr) raw_text->append(piece.literal);
      continue;
    }
    const Reference& ref = refs_[piece.ref];
    const size_t start = text.size();
    if (raw[piece.ref]) {
      AppendTextEscaped(text, *raw[piece.ref]);
    } else {
      text.append(kNotAvailable);
    }
    if (ref.width) text.resize(start + ref.width, ' ');
    if (raw_text != nullptr) {
      const size_t raw_start = raw_text->size();
      raw_text->append(raw[piece.ref] ? std::string_view(*raw[piece.ref]) : kNotAvailable);
      if (ref.width) raw_text->resize(raw_start + ref.width, ' ');
    }
  }
  for (size_t r = 0; r < refs_.size(); ++r) {
    bool seen = false;
    for (const OutputField& f : fields) seen = seen || f.name == refs_[r].name;
    if (seen) continue;
    fields.push_back(OutputField{refs_[r].name, std::move(raw[r]), JsonKind(refs_[r].type)});
  }
  for (size_t e = 0; e < extra_.size(); ++e) {
    OutputField field{extra_[e].key, std::nullopt, FieldJsonKind::kString};
    std::string escaped;
    OutputFields inner;
    if (extra_[e].raw) {
      // The field's own value and type, as Falco's JSON formatter gives it.
      extra_formats_[e].Render(reader, escaped, inner);
      field.value = std::move(inner.at(0).value);
      field.kind = inner.at(0).kind;
    } else {
      field.value.emplace();
      extra_formats_[e].Render(reader, escaped, inner, &*field.value);
    }
    auto same = std::find_if(fields.begin(), fields.end(),
                             [&](const OutputField& f) { return f.name == field.name; });
    if (same != fields.end()) {
      *same = std::move(field);
    } else {
      fields.push_back(std::move(field));
    }
  }
}

std::vector<std::string> OutputFormat::FieldNames() const {
  std::vector<std::string> names;
  for (const Reference& ref : refs_) {
    bool seen = false;
    for (const std::string& n : names) seen = seen || n == ref.name;
    if (!seen) names.push_back(ref.name);
  }
  for (const ExtraField& e : extra_) {
    if (std::find(names.begin(), names.end(), e.key) == names.end()) names.push_back(e.key);
  }
  return names;
}

}  // namespace kestrel::engine::alerts
