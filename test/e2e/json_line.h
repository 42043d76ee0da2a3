// A strict check that a line is one JSON value (RFC 8259), enough to tell
// that `--json` output parses without a JSON library in the tests.
#ifndef KESTREL_TEST_E2E_JSON_LINE_H_
#define KESTREL_TEST_E2E_JSON_LINE_H_

#include <cctype>
#include <cstring>
#include <string_view>

namespace kestrel::e2e {

class JsonLine {
 public:
  static bool Parses(std::string_view text) {
    JsonLine p(text);
    return p.Value() && (p.SkipSpace(), p.pos_ == text.size());
  }

 private:
  explicit JsonLine(std::string_view text) : s_(text) {}

  void SkipSpace() {
    while (pos_ < s_.size() && std::strchr(" \t\r\n", s_[pos_]) != nullptr) ++pos_;
  }
  bool Eat(char c) {
    SkipSpace();
    if (pos_ < s_.size() && s_[pos_] == c) return ++pos_, true;
    return false;
  }
  bool Literal(std::string_view word) {
    if (s_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }
  bool String() {
    if (!Eat('"')) return false;
    while (pos_ < s_.size()) {
      const unsigned char c = static_cast<unsigned char>(s_[pos_++]);
      if (c == '"') return true;
      if (c < 0x20) return false;
      if (c != '\\') continue;
      if (pos_ >= s_.size()) return false;
      const char e = s_[pos_++];
      if (e == 'u') {
        for (int i = 0; i < 4; ++i) {
          if (pos_ >= s_.size() || !std::isxdigit(static_cast<unsigned char>(s_[pos_++]))) {
            return false;
          }
        }
      } else if (std::strchr("\"\\/bfnrt", e) == nullptr) {
        return false;
      }
    }
    return false;
  }
  bool Digits() {
    const size_t start = pos_;
    while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) ++pos_;
    return pos_ > start;
  }
  bool Number() {
    if (pos_ < s_.size() && s_[pos_] == '-') ++pos_;
    if (pos_ < s_.size() && s_[pos_] == '0') {
      ++pos_;
    } else if (!Digits()) {
      return false;
    }
    if (pos_ < s_.size() && s_[pos_] == '.' && (++pos_, !Digits())) return false;
    if (pos_ < s_.size() && (s_[pos_] == 'e' || s_[pos_] == 'E')) {
      ++pos_;
      if (pos_ < s_.size() && (s_[pos_] == '+' || s_[pos_] == '-')) ++pos_;
      if (!Digits()) return false;
    }
    return true;
  }
  template <typename Item>
  bool List(char close, Item item) {
    if (Eat(close)) return true;
    do {
      if (!item()) return false;
    } while (Eat(','));
    return Eat(close);
  }
  bool Value() {
    SkipSpace();
    if (pos_ >= s_.size()) return false;
    switch (s_[pos_]) {
      case '{':
        ++pos_;
        return List('}', [&] { return String() && Eat(':') && Value(); });
      case '[':
        ++pos_;
        return List(']', [&] { return Value(); });
      case '"':
        return String();
      case 't':
        return Literal("true");
      case 'f':
        return Literal("false");
      case 'n':
        return Literal("null");
      default:
        return Number();
    }
  }

  std::string_view s_;
  size_t pos_ = 0;
};

}  // namespace kestrel::e2e

#endif  // KESTREL_TEST_E2E_JSON_LINE_H_
