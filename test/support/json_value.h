// A small JSON reader for tests: parses one value into a tree, keeping an
// object's members in the order written (so a test can check key order)
// and numbers as their text (so 64-bit values compare exactly). Strings
// are decoded to UTF-8, \uXXXX surrogate pairs included. Pair it with
// StrictJson to check validity first: this reader is lenient.
#ifndef KESTREL_TEST_SUPPORT_JSON_VALUE_H_
#define KESTREL_TEST_SUPPORT_JSON_VALUE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kestrel::testing {

struct JsonValue {
  enum class Kind { kNull, kBool, kNumber, kString, kArray, kObject };
  Kind kind = Kind::kNull;
  bool boolean = false;
  std::string text;  // a number's digits, or a string's decoded bytes
  std::vector<JsonValue> items;
  std::vector<std::pair<std::string, JsonValue>> members;

  // The member `key` of an object, or null when there is none.
  const JsonValue* Find(std::string_view key) const {
    for (const auto& [k, v] : members) {
      if (k == key) return &v;
    }
    return nullptr;
  }
  std::vector<std::string> Keys() const {
    std::vector<std::string> keys;
    for (const auto& m : members) keys.push_back(m.first);
    return keys;
  }

  // Parses `s`; nullopt when it is not one JSON value.
  static std::optional<JsonValue> Parse(std::string_view s) {
    Reader r{s};
    JsonValue v;
    r.Space();
    if (!r.Value(v)) return std::nullopt;
    r.Space();
    if (r.i != s.size()) return std::nullopt;
    return v;
  }

 private:
  struct Reader {
    std::string_view s;
    size_t i = 0;

    void Space() {
      while (i < s.size() && (s[i] == ' ' || s[i] == '\n' || s[i] == '\t' || s[i] == '\r')) ++i;
    }
    bool Word(std::string_view w) {
      if (s.substr(i, w.size()) != w) return false;
      i += w.size();
      return true;
    }
    bool Value(JsonValue& v) {
      if (i >= s.size()) return false;
      switch (s[i]) {
        case '{':
          return Object(v);
        case '[':
          return Array(v);
        case '"':
          v.kind = Kind::kString;
          return String(v.text);
        case 't':
          v.kind = Kind::kBool;
          v.boolean = true;
          return Word("true");
        case 'f':
          v.kind = Kind::kBool;
          return Word("false");
        case 'n':
          return Word("null");
        default: {
          const size_t start = i;
          while (i < s.size() && (std::string_view("+-.eE").find(s[i]) != std::string_view::npos ||
                                  (s[i] >= '0' && s[i] <= '9'))) {
            ++i;
          }
          v.kind = Kind::kNumber;
          v.text = std::string(s.substr(start, i - start));
          return i > start;
        }
      }
    }
    bool Object(JsonValue& v) {
      v.kind = Kind::kObject;
      ++i;
      Space();
      if (i < s.size() && s[i] == '}') return ++i, true;
      for (;;) {
        Space();
        std::string key;
        if (i >= s.size() || s[i] != '"' || !String(key)) return false;
        Space();
        if (!Word(":")) return false;
        Space();
        JsonValue member;
        if (!Value(member)) return false;
        v.members.emplace_back(std::move(key), std::move(member));
        Space();
        if (Word(",")) continue;
        return Word("}");
      }
    }
    bool Array(JsonValue& v) {
      v.kind = Kind::kArray;
      ++i;
      Space();
      if (i < s.size() && s[i] == ']') return ++i, true;
      for (;;) {
        Space();
        JsonValue item;
        if (!Value(item)) return false;
        v.items.push_back(std::move(item));
        Space();
        if (Word(",")) continue;
        return Word("]");
      }
    }
    bool Hex4(uint32_t& out) {
      if (i + 4 > s.size()) return false;
      out = 0;
      for (int k = 0; k < 4; ++k) {
        const char c = s[i++];
        out <<= 4;
        if (c >= '0' && c <= '9')
          out |= static_cast<uint32_t>(c - '0');
        else if (c >= 'a' && c <= 'f')
          out |= static_cast<uint32_t>(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
          out |= static_cast<uint32_t>(c - 'A' + 10);
        else
          return false;
      }
      return true;
    }
    static void Utf8(std::string& out, uint32_t cp) {
      if (cp < 0x80) {
        out.push_back(static_cast<char>(cp));
      } else if (cp < 0x800) {
        out.push_back(static_cast<char>(0xc0 | (cp >> 6)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3f)));
      } else if (cp < 0x10000) {
        out.push_back(static_cast<char>(0xe0 | (cp >> 12)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3f)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3f)));
      } else {
        out.push_back(static_cast<char>(0xf0 | (cp >> 18)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3f)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3f)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3f)));
      }
    }
    bool String(std::string& out) {
      ++i;
      while (i < s.size() && s[i] != '"') {
        if (s[i] != '\\') {
          out.push_back(s[i++]);
          continue;
        }
        if (++i >= s.size()) return false;
        const char e = s[i++];
        switch (e) {
          case 'n':
            out.push_back('\n');
            break;
          case 't':
            out.push_back('\t');
            break;
          case 'r':
            out.push_back('\r');
            break;
          case 'b':
            out.push_back('\b');
            break;
          case 'f':
            out.push_back('\f');
            break;
          case 'u': {
            uint32_t cp;
            if (!Hex4(cp)) return false;
            if (cp >= 0xd800 && cp < 0xdc00 && Word("\\u")) {
              uint32_t low;
              if (!Hex4(low)) return false;
              cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
            }
            Utf8(out, cp);
            break;
          }
          default:
            out.push_back(e);
        }
      }
      return Word("\"");
    }
  };
};

}  // namespace kestrel::testing

#endif  // KESTREL_TEST_SUPPORT_JSON_VALUE_H_
