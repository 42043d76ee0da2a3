#include "engine/filter/combiners.h"

#include <array>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace kestrel::engine::filter {
namespace {

bool IsNumber(ValueType t) {
  return t == ValueType::kInt || t == ValueType::kUint || t == ValueType::kDouble;
}

// A scalar as text: a view into the value itself, a constant, or the next
// of `made.items` (numbers), which the caller reads only once all of them
// are written.
std::string_view ScalarText(ValueType type, const FieldValue& v, MadeValue& made, size_t& used) {
  switch (type) {
    case ValueType::kBool:
      return v.b ? "true" : "false";
    case ValueType::kInt:
    case ValueType::kUint:
    case ValueType::kDouble: {
      if (used == made.items.size()) made.items.emplace_back();
      std::string& text = made.items[used++];
      text.clear();
      if (type == ValueType::kInt) {
        absl::StrAppend(&text, v.i);
      } else if (type == ValueType::kDouble) {
        absl::StrAppendFormat(&text, "%.1f", v.d);
      } else {
        absl::StrAppend(&text, v.u);
      }
      return text;
    }
    default:
      return v.str;
  }
}

// A list's items, flattened: each argument gives its value, or its items
// when it is a list itself.
void MakeList(std::span<const FieldValue* const> args, std::span<const ValueType> types,
              MadeValue& made) {
  size_t used = 0;
  for (size_t i = 0; i < args.size(); ++i) {
    if (IsNumber(types[i])) ScalarText(types[i], *args[i], made, used);
  }
  made.views.clear();
  size_t next_number = 0;
  for (size_t i = 0; i < args.size(); ++i) {
    if (types[i] == ValueType::kStringList) {
      made.views.insert(made.views.end(), args[i]->items.begin(), args[i]->items.end());
    } else if (IsNumber(types[i])) {
      made.views.push_back(made.items[next_number++]);
    } else {
      size_t unused = 0;
      made.views.push_back(ScalarText(types[i], *args[i], made, unused));
    }
  }
}

// The option characters an optstring takes ("ab:c"), and which of them
// take a value; a ':' is never an option.
struct OptionSpec {
  std::array<bool, 256> valid{};
  std::array<bool, 256> takes_value{};
};

OptionSpec ParseOptions(std::string_view spec) {
  OptionSpec out;
  for (size_t i = 0; i < spec.size(); ++i) {
    const auto c = static_cast<unsigned char>(spec[i]);
    if (c == ':') continue;
    out.valid[c] = true;
    if (i + 1 < spec.size() && spec[i + 1] == ':') out.takes_value[c] = true;
  }
  return out;
}

// getopt(3)'s reading of `argv` by `spec`: each option gives its character
// and, when it takes one, its value ("" when the value is missing); an
// unknown option gives "?". Reading stops at "--", at the first word that
// is not an option, and skips long options (--name). With `selector`, only
// the last value (or character) of that option is kept.
bool Getopt(std::span<const std::string_view> argv, std::string_view spec,
            std::optional<char> selector, MadeValue& made, FieldValue& out) {
  const OptionSpec options = ParseOptions(spec);
  made.views.clear();
  std::optional<std::string_view> selected;
  const auto give = [&](char option, std::string_view name, std::optional<std::string_view> value) {
    if (selector) {
      if (option == *selector) selected = value.value_or(name);
      return;
    }
    made.views.push_back(name);
    if (value) made.views.push_back(*value);
  };
  for (size_t i = 0; i < argv.size(); ++i) {
    const std::string_view word = argv[i];
    if (word == "--") break;
    if (word.size() > 2 && word[0] == '-' && word[1] == '-') continue;
    if (word.size() < 2 || word[0] != '-') break;
    for (size_t j = 1; j < word.size(); ++j) {
      const char option = word[j];
      const auto c = static_cast<unsigned char>(option);
      if (!options.valid[c]) {
        if (!selector) made.views.push_back("?");
        continue;
      }
      if (!options.takes_value[c]) {
        give(option, word.substr(j, 1), std::nullopt);
        continue;
      }
      if (j + 1 < word.size()) {
        give(option, word.substr(j, 1), word.substr(j + 1));
      } else if (i + 1 < argv.size()) {
        give(option, word.substr(j, 1), argv[++i]);
      } else {
        // A missing value: the option gives "" alone.
        give(option, "", std::nullopt);
      }
      break;  // the rest of the word, or the next one, was the value
    }
  }
  if (selector) {
    if (!selected) return false;
    out.str = *selected;
    return true;
  }
  out.items = made.views;
  return true;
}

}  // namespace

bool Combine(Combiner kind, std::string_view literal, std::optional<char> selector,
             std::span<const FieldValue* const> args, std::span<const ValueType> types,
             MadeValue& made, FieldValue& out) {
  for (const FieldValue* arg : args) {
    if (arg == nullptr) return false;
  }
  switch (kind) {
    case Combiner::kLiteral:
      out.str = literal;
      return true;
    case Combiner::kList:
      MakeList(args, types, made);
      out.items = made.views;
      return true;
    case Combiner::kJoin: {
      size_t used = 0;
      const std::string_view separator = ScalarText(types[0], *args[0], made, used);
      made.text.clear();
      for (size_t i = 0; i < args[1]->items.size(); ++i) {
        if (i) made.text.append(separator);
        made.text.append(args[1]->items[i]);
      }
      out.str = made.text;
      return true;
    }
    case Combiner::kConcat:
      made.text.clear();
      for (const FieldValue* arg : args) made.text.append(arg->str);
      out.str = made.text;
      return true;
    case Combiner::kGetopt:
      return Getopt(args[0]->items, args[1]->str, selector, made, out);
  }
  return false;
}

}  // namespace kestrel::engine::filter
