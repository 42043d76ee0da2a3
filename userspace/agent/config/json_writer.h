// A small JSON writer for the agent's documents (describe-rules, --support):
// compact, one line, strings escaped by the engine's JSON escaper (valid
// UTF-8 and valid JSON for any bytes).
#ifndef KESTREL_AGENT_CONFIG_JSON_WRITER_H_
#define KESTREL_AGENT_CONFIG_JSON_WRITER_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/output/escape.h"

namespace kestrel::agent {

class JsonWriter {
 public:
  // '{' or '[', then its members or items, then Close with the other one.
  void Open(char c) {
    Comma();
    out_.push_back(c);
    first_ = true;
  }
  void Close(char c) {
    out_.push_back(c);
    first_ = false;
  }
  // An object's key; the value written next is its value.
  void Key(std::string_view key) {
    Comma();
    engine::AppendJsonString(out_, key);
    out_.push_back(':');
    first_ = true;
  }
  void String(std::string_view s) {
    Comma();
    engine::AppendJsonString(out_, s);
  }
  void Bool(bool b) {
    Comma();
    out_ += b ? "true" : "false";
  }
  void Number(uint64_t n) {
    Comma();
    absl::StrAppend(&out_, n);
  }
  // A finite number (the config's values are checked finite).
  void Double(double d) {
    Comma();
    absl::StrAppend(&out_, d);
  }
  void Strings(const std::vector<std::string>& items) {
    Open('[');
    for (const std::string& s : items) String(s);
    Close(']');
  }
  // Key and value at once: a bool, a whole number, a list of strings or
  // a string.
  template <typename T>
  void Field(std::string_view key, const T& value) {
    Key(key);
    if constexpr (std::is_same_v<T, bool>) {
      Bool(value);
    } else if constexpr (std::is_integral_v<T>) {
      Number(value);
    } else if constexpr (std::is_same_v<T, std::vector<std::string>>) {
      Strings(value);
    } else {
      String(value);
    }
  }
  // A value already written as JSON (a whole object or array).
  void Raw(std::string_view json) {
    Comma();
    out_ += json;
  }
  std::string Take() { return std::move(out_); }

 private:
  void Comma() {
    if (!first_) out_.push_back(',');
    first_ = false;
  }
  std::string out_;
  bool first_ = true;
};

}  // namespace kestrel::agent

#endif  // KESTREL_AGENT_CONFIG_JSON_WRITER_H_
