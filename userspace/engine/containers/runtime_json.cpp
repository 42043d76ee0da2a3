#include "engine/containers/runtime_json.h"

#include <algorithm>
#include <cstdint>

namespace kestrel::engine::containers::json {
namespace {
namespace runtime_json_escapes {

// yaml-cpp reads JSON as YAML's flow style, except one thing: it refuses a
// UTF-16 surrogate escape ("\ud83d\ude00"), which JSON spells characters
// beyond the BMP with. Rewritten here into the UTF-8 bytes they stand for,
// which a quoted YAML scalar takes as they are; a lone surrogate becomes
// U+FFFD, as Go's decoder (Docker's, Podman's) makes it. Outside strings
// valid JSON has no backslash, so no tracking of where strings are is needed.
bool HexQuad(std::string_view s, size_t at, uint32_t& out) {
  if (at + 4 > s.size()) return false;
  out = 0;
  for (size_t i = at; i < at + 4; ++i) {
    const char c = s[i];
    uint32_t digit = 0;
    if (c >= '0' && c <= '9') {
      digit = static_cast<uint32_t>(c - '0');
    } else if (c >= 'a' && c <= 'f') {
      digit = static_cast<uint32_t>(c - 'a' + 10);
    } else if (c >= 'A' && c <= 'F') {
      digit = static_cast<uint32_t>(c - 'A' + 10);
    } else {
      return false;
    }
    out = out * 16 + digit;
  }
  return true;
}

void AppendUtf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

bool IsHighSurrogate(uint32_t u) { return u >= 0xD800 && u <= 0xDBFF; }
bool IsLowSurrogate(uint32_t u) { return u >= 0xDC00 && u <= 0xDFFF; }

std::string WithoutSurrogateEscapes(std::string_view json) {
  std::string out;
  out.reserve(json.size());
  size_t i = 0;
  while (i < json.size()) {
    const char c = json[i];
    if (c != '\\' || i + 1 >= json.size()) {
      out += c;
      ++i;
      continue;
    }
    uint32_t unit = 0;
    if (json[i + 1] != 'u' || !HexQuad(json, i + 2, unit) ||
        !(IsHighSurrogate(unit) || IsLowSurrogate(unit))) {
      // Any other escape goes through whole, so that the escaped character
      // ("\\" before a "u") is never read as the start of another escape.
      out.append(json.substr(i, 2));
      i += 2;
      continue;
    }
    uint32_t low = 0;
    if (IsHighSurrogate(unit) && i + 7 < json.size() && json[i + 6] == '\\' && json[i + 7] == 'u' &&
        HexQuad(json, i + 8, low) && IsLowSurrogate(low)) {
      AppendUtf8(out, 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00));
      i += 12;
    } else {
      AppendUtf8(out, 0xFFFD);
      i += 6;
    }
  }
  return out;
}

}  // namespace runtime_json_escapes
}  // namespace

YAML::Node Load(std::string_view json) {
  return YAML::Load(runtime_json_escapes::WithoutSurrogateEscapes(json));
}

// `node`'s member `key`, or an undefined node: on a node that is not a map
// yaml-cpp's operator[] throws, and the node it returns for a missing key
// throws on every question but "are you defined".
YAML::Node Member(const YAML::Node& node, const char* key) {
  if (!node.IsDefined() || !node.IsMap()) return YAML::Node(YAML::NodeType::Undefined);
  YAML::Node child = node[key];
  if (!child.IsDefined()) return YAML::Node(YAML::NodeType::Undefined);
  return child;
}

// Rebinds with reset(): yaml-cpp's Node::operator= would write the member
// into the node `at` refers to, that is, into the document.
YAML::Node Path(const YAML::Node& node, std::initializer_list<const char*> keys) {
  YAML::Node at = node;
  for (const char* key : keys) at.reset(Member(at, key));
  return at;
}

// A JSON string is a quoted scalar, which yaml-cpp tags "!"; a number, a
// boolean or null is a plain one ("?"). So 1000 is not the string "1000".
bool IsString(const YAML::Node& node) {
  return node.IsDefined() && node.IsScalar() && node.Tag() == "!";
}

// The string's bytes as the runtime sent them (escapes decoded, nothing
// else); `fallback` when the node is not a string.
std::string StringOr(const YAML::Node& node, std::string fallback) {
  return IsString(node) ? node.Scalar() : fallback;
}

bool BoolOr(const YAML::Node& node, bool fallback) {
  if (!node.IsDefined() || !node.IsScalar() || node.Tag() != "?") return fallback;
  if (node.Scalar() == "true") return true;
  if (node.Scalar() == "false") return false;
  return fallback;
}

// The strings of a JSON array; its other members are skipped.
std::vector<std::string> Strings(const YAML::Node& node) {
  std::vector<std::string> out;
  if (!node.IsDefined() || !node.IsSequence()) return out;
  for (const YAML::Node& item : node) {
    if (IsString(item)) out.push_back(item.Scalar());
  }
  return out;
}

// A label whose value is not a string is skipped; the rest are kept whole,
// whatever bytes they hold (the container's author chose them).
std::vector<std::pair<std::string, std::string>> Labels(const YAML::Node& labels) {
  std::vector<std::pair<std::string, std::string>> out;
  if (!labels.IsDefined() || !labels.IsMap()) return out;
  for (const auto& entry : labels) {
    if (IsString(entry.first) && IsString(entry.second)) {
      out.emplace_back(entry.first.Scalar(), entry.second.Scalar());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace kestrel::engine::containers::json
