#include "engine/filter/transformers.h"

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "engine/filter/scanner.h"

namespace kestrel::engine::filter {

std::optional<ValueType> TransformedType(Transformer t, ValueType in) {
  if (t == Transformer::kLen) {
    if (in == ValueType::kString || in == ValueType::kStringList) return ValueType::kUint;
    return std::nullopt;
  }
  if (in == ValueType::kString) return ValueType::kString;
  return std::nullopt;
}

bool ApplyTransformer(Transformer t, ValueType in, FieldValue& value, std::string& scratch,
                      std::string& spare) {
  switch (t) {
    case Transformer::kLen:
      value.u = in == ValueType::kStringList ? value.items.size() : value.str.size();
      return true;
    case Transformer::kToLower:
    case Transformer::kToUpper: {
      // assign() copes with `value.str` already pointing into `scratch`.
      scratch.assign(value.str.data(), value.str.size());
      for (char& c : scratch) {
        c = t == Transformer::kToLower ? absl::ascii_tolower(static_cast<unsigned char>(c))
                                       : absl::ascii_toupper(static_cast<unsigned char>(c));
      }
      value.str = scratch;
      return true;
    }
    case Transformer::kB64: {
      if (!absl::Base64Unescape(Sv(value.str), &spare)) return false;
      scratch.swap(spare);
      value.str = scratch;
      return true;
    }
    case Transformer::kBasename: {
      std::string_view s = value.str;
      while (s.size() > 1 && s.back() == '/') s.remove_suffix(1);
      const size_t slash = s.rfind('/');
      if (slash != std::string_view::npos && s.size() > 1) s.remove_prefix(slash + 1);
      value.str = s;  // a view into the same bytes: no copy
      return true;
    }
  }
  return false;
}

}  // namespace kestrel::engine::filter
