#include "engine/filter/value_text.h"

#include <span>
#include <string_view>
#include <type_traits>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace kestrel::engine::filter {
namespace {

template <typename T>
void AppendJoined(std::string& out, std::span<const T> values) {
  for (size_t i = 0; i < values.size(); ++i) {
    if (i) out.push_back(' ');
    if constexpr (std::is_same_v<T, std::string_view>) {
      out.append(values[i]);
    } else {
      absl::StrAppend(&out, values[i]);
    }
  }
}

}  // namespace

void AppendValueText(ValueType type, Multiplicity multiplicity, const FieldValue& value,
                     std::string& out) {
  const bool several = multiplicity != Multiplicity::kOne;
  switch (type) {
    case ValueType::kString:
    case ValueType::kIpAddr:
    case ValueType::kIpNet:
      if (several) {
        AppendJoined(out, value.items);
      } else {
        out.append(value.str);
      }
      break;
    case ValueType::kInt:
      if (several) {
        AppendJoined(out, value.ints);
      } else {
        absl::StrAppend(&out, value.i);
      }
      break;
    case ValueType::kUint:
      if (several) {
        AppendJoined(out, value.uints);
      } else {
        absl::StrAppend(&out, value.u);
      }
      break;
    case ValueType::kBool:
      out.append(value.b ? "true" : "false");
      break;
    case ValueType::kDouble:
      // One decimal, as Falco prints its doubles.
      absl::StrAppendFormat(&out, "%.1f", value.d);
      break;
    case ValueType::kStringList:
      AppendJoined(out, value.items);
      break;
  }
}

}  // namespace kestrel::engine::filter
