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

// The UTF-8 sequence starting at s[i] (Unicode 15, table 3-7): its length,
// and whether it is well formed. An ill-formed one is its maximal subpart
// (the lead byte and the continuation bytes that still fit it; at least one
// byte), the unit Unicode's substitution practice replaces by one U+FFFD.
struct Utf8Sequence {
  size_t length;
  bool valid;
};

Utf8Sequence ScanUtf8(std::string_view s, size_t i) {
  const uint8_t c = static_cast<uint8_t>(s[i]);
  if (c < 0x80) return {1, true};
  size_t need = 0;
  uint8_t lo = 0x80, hi = 0xbf;  // the range of the byte after the lead
  if (c >= 0xc2 && c <= 0xdf) {
    need = 2;
  } else if (c >= 0xe0 && c <= 0xef) {
    need = 3;
    if (c == 0xe0) lo = 0xa0;  // no overlong forms
    if (c == 0xed) hi = 0x9f;  // no surrogates
  } else if (c >= 0xf0 && c <= 0xf4) {
    need = 4;
    if (c == 0xf0) lo = 0x90;  // no overlong forms
    if (c == 0xf4) hi = 0x8f;  // nothing above U+10FFFF
  } else {
    return {1, false};  // a continuation byte, C0, C1 or F5..FF: never a lead
  }
  size_t n = 1;
  while (n < need && i + n < s.size()) {
    const uint8_t b = static_cast<uint8_t>(s[i + n]);
    if (n == 1 ? (b < lo || b > hi) : !IsContinuation(b)) break;
    ++n;
  }
  return {n, n == need};
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
    const Utf8Sequence seq = ScanUtf8(s, i);
    if (!seq.valid) {
      out.append("\xef\xbf\xbd");  // U+FFFD, the replacement character
    } else if (seq.length == 1) {
      if (c == '"' || c == '\\') {
        out.push_back('\\');
        out.push_back(s[i]);
      } else if (c < 0x20 || c == 0x7f) {
        AppendHexByte(out, "\\u00", c);
      } else {
        out.push_back(s[i]);
      }
    } else if (c == 0xc2 && static_cast<uint8_t>(s[i + 1]) <= 0x9f) {
      AppendHexByte(out, "\\u00", static_cast<uint8_t>(s[i + 1]));  // a C1 control
    } else {
      out.append(s.substr(i, seq.length));
    }
    i += seq.length;
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
