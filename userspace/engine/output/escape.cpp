#include "escape.h"

#include <cstddef>
#include <cstdint>

namespace kestrel::engine {
namespace {

constexpr char kHex[] = "0123456789abcdef";

void AppendHexByte(std::string& out, const char* prefix, uint8_t c) {
  out.append(prefix);
  out.push_back(kHex[c >> 4]);
  out.push_back(kHex[c & 0xf]);
}

bool IsContinuation(uint8_t c) { return (c & 0xc0) == 0x80; }

// Length of the well-formed UTF-8 sequence starting at s[i] (Unicode 15,
// table 3-7), or 0 when the byte there does not start one.
size_t Utf8SequenceLength(std::string_view s, size_t i) {
  const auto at = [&](size_t k) -> uint8_t { return static_cast<uint8_t>(s[i + k]); };
  const size_t left = s.size() - i;
  const uint8_t c = at(0);
  if (c < 0x80) return 1;
  if (c >= 0xc2 && c <= 0xdf) return left >= 2 && IsContinuation(at(1)) ? 2 : 0;
  if (c >= 0xe0 && c <= 0xef) {
    if (left < 3 || !IsContinuation(at(2))) return 0;
    const uint8_t lo = c == 0xe0 ? 0xa0 : 0x80;  // no overlong forms
    const uint8_t hi = c == 0xed ? 0x9f : 0xbf;  // no surrogates
    return at(1) >= lo && at(1) <= hi ? 3 : 0;
  }
  if (c >= 0xf0 && c <= 0xf4) {
    if (left < 4 || !IsContinuation(at(2)) || !IsContinuation(at(3))) return 0;
    const uint8_t lo = c == 0xf0 ? 0x90 : 0x80;  // no overlong forms
    const uint8_t hi = c == 0xf4 ? 0x8f : 0xbf;  // nothing above U+10FFFF
    return at(1) >= lo && at(1) <= hi ? 4 : 0;
  }
  return 0;
}

}  // namespace

void AppendTextEscaped(std::string& out, std::string_view s) {
  for (char ch : s) {
    const auto c = static_cast<uint8_t>(ch);
    if (c == '\\' || c == '"') {
      out.push_back('\\');
      out.push_back(ch);
    } else if (c < 0x20 || c >= 0x7f) {
      AppendHexByte(out, "\\x", c);
    } else {
      out.push_back(ch);
    }
  }
}

void AppendTextQuoted(std::string& out, std::string_view s) {
  out.push_back('"');
  AppendTextEscaped(out, s);
  out.push_back('"');
}

void AppendJsonString(std::string& out, std::string_view s) {
  out.push_back('"');
  size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<uint8_t>(s[i]);
    const size_t n = Utf8SequenceLength(s, i);
    if (n == 0) {
      AppendHexByte(out, "\\u00", c);  // not UTF-8: the byte as U+00NN
      ++i;
    } else if (n == 1) {
      if (c == '"' || c == '\\') {
        out.push_back('\\');
        out.push_back(s[i]);
      } else if (c < 0x20 || c == 0x7f) {
        AppendHexByte(out, "\\u00", c);
      } else {
        out.push_back(s[i]);
      }
      ++i;
    } else if (c == 0xc2 && static_cast<uint8_t>(s[i + 1]) <= 0x9f) {
      AppendHexByte(out, "\\u00", static_cast<uint8_t>(s[i + 1]));  // a C1 control
      i += 2;
    } else {
      out.append(s.substr(i, n));
      i += n;
    }
  }
  out.push_back('"');
}

void AppendQuoted(std::string& out, std::string_view s, OutputStyle style) {
  if (style == OutputStyle::kJson) {
    AppendJsonString(out, s);
  } else {
    AppendTextQuoted(out, s);
  }
}

}  // namespace kestrel::engine
