// A small strict JSON checker for tests: one value (RFC 8259) whose text is
// well-formed UTF-8, with no raw control characters in strings, only the
// escapes JSON defines, and no lone surrogate escapes. Returns "" when
// valid, else what is wrong and where.
#ifndef KESTREL_TEST_SUPPORT_STRICT_JSON_H_
#define KESTREL_TEST_SUPPORT_STRICT_JSON_H_

#include <cctype>
#include <cstdint>
#include <string>
#include <string_view>

namespace kestrel::testing {

class StrictJson {
 public:
  static std::string Check(std::string_view text) {
    StrictJson p(text);
    p.SkipSpace();
    if (!p.Value()) return p.error_;
    p.SkipSpace();
    if (p.i_ != text.size()) p.Fail("trailing bytes");
    return p.error_;
  }

 private:
  explicit StrictJson(std::string_view s) : s_(s) {}

  bool Fail(const char* what) {
    if (error_.empty()) error_ = std::string(what) + " at byte " + std::to_string(i_);
    return false;
  }
  bool More() const { return i_ < s_.size(); }
  uint8_t Peek() const { return static_cast<uint8_t>(s_[i_]); }
  void SkipSpace() {
    while (More() && (Peek() == ' ' || Peek() == '\t' || Peek() == '\n' || Peek() == '\r')) ++i_;
  }
  bool Literal(std::string_view word) {
    if (s_.substr(i_, word.size()) != word) return Fail("bad literal");
    i_ += word.size();
    return true;
  }

  bool Value() {
    if (!More()) return Fail("missing value");
    switch (Peek()) {
      case '{':
        return Object();
      case '[':
        return Array();
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

  bool Object() {
    ++i_;
    SkipSpace();
    if (More() && Peek() == '}') return ++i_, true;
    while (true) {
      SkipSpace();
      if (!More() || Peek() != '"') return Fail("expected member name");
      if (!String()) return false;
      SkipSpace();
      if (!More() || Peek() != ':') return Fail("expected ':'");
      ++i_;
      SkipSpace();
      if (!Value()) return false;
      SkipSpace();
      if (More() && Peek() == ',') {
        ++i_;
        continue;
      }
      if (More() && Peek() == '}') return ++i_, true;
      return Fail("expected ',' or '}'");
    }
  }

  bool Array() {
    ++i_;
    SkipSpace();
    if (More() && Peek() == ']') return ++i_, true;
    while (true) {
      SkipSpace();
      if (!Value()) return false;
      SkipSpace();
      if (More() && Peek() == ',') {
        ++i_;
        continue;
      }
      if (More() && Peek() == ']') return ++i_, true;
      return Fail("expected ',' or ']'");
    }
  }

  bool Digits() {
    const size_t start = i_;
    while (More() && std::isdigit(Peek())) ++i_;
    return i_ > start || Fail("expected digits");
  }

  bool Number() {
    if (More() && Peek() == '-') ++i_;
    if (More() && Peek() == '0') {
      ++i_;
    } else if (!Digits()) {
      return false;
    }
    if (More() && Peek() == '.') {
      ++i_;
      if (!Digits()) return false;
    }
    if (More() && (Peek() == 'e' || Peek() == 'E')) {
      ++i_;
      if (More() && (Peek() == '+' || Peek() == '-')) ++i_;
      if (!Digits()) return false;
    }
    return true;
  }

  bool Hex4(uint32_t& v) {
    if (i_ + 4 > s_.size()) return Fail("short \\u escape");
    v = 0;
    for (int k = 0; k < 4; ++k) {
      const char c = s_[i_++];
      v <<= 4;
      if (c >= '0' && c <= '9') {
        v |= c - '0';
      } else if (c >= 'a' && c <= 'f') {
        v |= c - 'a' + 10;
      } else if (c >= 'A' && c <= 'F') {
        v |= c - 'A' + 10;
      } else {
        return Fail("bad hex digit");
      }
    }
    return true;
  }

  // One UTF-8 sequence of 2..4 bytes, strictly (no overlongs, surrogates,
  // or code points past U+10FFFF).
  bool Utf8() {
    const uint8_t c = Peek();
    size_t n;
    uint8_t lo = 0x80, hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) {
      n = 2;
    } else if (c >= 0xe0 && c <= 0xef) {
      n = 3;
      if (c == 0xe0) lo = 0xa0;
      if (c == 0xed) hi = 0x9f;
    } else if (c >= 0xf0 && c <= 0xf4) {
      n = 4;
      if (c == 0xf0) lo = 0x90;
      if (c == 0xf4) hi = 0x8f;
    } else {
      return Fail("invalid UTF-8 lead byte");
    }
    if (i_ + n > s_.size()) return Fail("truncated UTF-8");
    const auto at = [&](size_t k) { return static_cast<uint8_t>(s_[i_ + k]); };
    if (at(1) < lo || at(1) > hi) return Fail("invalid UTF-8 sequence");
    for (size_t k = 2; k < n; ++k) {
      if ((at(k) & 0xc0) != 0x80) return Fail("invalid UTF-8 continuation");
    }
    i_ += n;
    return true;
  }

  bool String() {
    ++i_;
    while (true) {
      if (!More()) return Fail("unterminated string");
      const uint8_t c = Peek();
      if (c == '"') return ++i_, true;
      if (c < 0x20) return Fail("raw control character in string");
      if (c >= 0x80) {
        if (!Utf8()) return false;
        continue;
      }
      ++i_;
      if (c != '\\') continue;
      if (!More()) return Fail("unterminated escape");
      const char e = s_[i_++];
      if (e == 'u') {
        uint32_t v = 0;
        if (!Hex4(v)) return false;
        if (v >= 0xdc00 && v <= 0xdfff) return Fail("lone low surrogate");
        if (v >= 0xd800 && v <= 0xdbff) {
          uint32_t low = 0;
          if (s_.substr(i_, 2) != "\\u") return Fail("lone high surrogate");
          i_ += 2;
          if (!Hex4(low)) return false;
          if (low < 0xdc00 || low > 0xdfff) return Fail("high surrogate without low");
        }
      } else if (std::string_view("\"\\/bfnrt").find(e) == std::string_view::npos) {
        return Fail("unknown escape");
      }
    }
  }

  std::string_view s_;
  size_t i_ = 0;
  std::string error_;
};

}  // namespace kestrel::testing

#endif  // KESTREL_TEST_SUPPORT_STRICT_JSON_H_
