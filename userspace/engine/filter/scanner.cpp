#include "engine/filter/scanner.h"

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"

namespace kestrel::engine::filter {
namespace {

bool IsBlank(char c) { return c == ' ' || c == '\t' || c == '\b' || c == '\r' || c == '\n'; }
bool IsNameStart(char c) { return absl::ascii_isalpha(static_cast<unsigned char>(c)); }
bool IsNameChar(char c) { return absl::ascii_isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool EndsBareWord(char c) {
  return IsBlank(c) || c == '(' || c == ')' || c == ',' || c == '=' || c == '"' || c == '\'';
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

void Scanner::Advance(size_t n) {
  for (size_t i = 0; i < n && !AtEnd(); ++i) {
    const char c = text_[pos_.offset++];
    if (c == '\n') {
      ++pos_.line;
      pos_.column = 1;
    } else {
      ++pos_.column;
    }
  }
}

bool Scanner::SkipBlanks() {
  const uint32_t start = pos_.offset;
  while (!AtEnd() && IsBlank(Peek())) Advance(1);
  return pos_.offset != start;
}

bool Scanner::TryChar(char c) {
  if (Peek() != c || AtEnd()) return false;
  Advance(1);
  return true;
}

bool Scanner::TryText(std::string_view s) {
  if (text_.substr(pos_.offset).substr(0, s.size()) != s) return false;
  Advance(s.size());
  return true;
}

bool Scanner::TryWord(std::string_view word) {
  const std::string_view rest = text_.substr(pos_.offset);
  if (rest.substr(0, word.size()) != word) return false;
  if (rest.size() > word.size() && IsNameChar(rest[word.size()])) return false;
  Advance(word.size());
  return true;
}

std::string Scanner::ReadName() {
  const std::string_view rest = text_.substr(pos_.offset);
  size_t n = 0;
  if (rest.empty() || !IsNameStart(rest[0])) return {};
  while (n < rest.size() && IsNameChar(rest[n])) ++n;
  // Each further part: '.', a letter, then name characters.
  while (n + 1 < rest.size() && rest[n] == '.' && IsNameStart(rest[n + 1])) {
    n += 1;
    while (n < rest.size() && IsNameChar(rest[n])) ++n;
  }
  std::string name(rest.substr(0, n));
  Advance(n);
  return name;
}

std::string Scanner::ReadBareWord() {
  const std::string_view rest = text_.substr(pos_.offset);
  size_t n = 0;
  while (n < rest.size() && !EndsBareWord(rest[n])) ++n;
  std::string word(rest.substr(0, n));
  Advance(n);
  return word;
}

std::string Scanner::ReadBareArgument() {
  const std::string_view rest = text_.substr(pos_.offset);
  size_t n = 0;
  while (n < rest.size() && rest[n] != ']' && rest[n] != '[' && rest[n] != '"' && rest[n] != '\'' &&
         !IsBlank(rest[n])) {
    ++n;
  }
  std::string arg(rest.substr(0, n));
  Advance(n);
  return arg;
}

absl::StatusOr<std::optional<std::string>> Scanner::ReadQuoted() {
  const char quote = Peek();
  if (AtEnd() || (quote != '"' && quote != '\'')) return std::optional<std::string>();
  const SourcePos start = pos_;
  Advance(1);
  std::string out;
  while (!AtEnd()) {
    const char c = Peek();
    if (c == quote) {
      Advance(1);
      return std::optional<std::string>(std::move(out));
    }
    if (c != '\\') {
      out += c;
      Advance(1);
      continue;
    }
    const SourcePos escape = pos_;
    Advance(1);
    if (AtEnd()) break;
    const char e = Peek();
    Advance(1);
    switch (e) {
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case '\\':
      case '/':
        out += e;
        break;
      case ' ':
        // Falco reads "\ " as one backslash, and its public rules rely on
        // it ("\ " for an argument ending in a backslash).
        out += '\\';
        break;
      case '"':
      case '\'':
        // Only the quote that opened the literal needs escaping; escaping
        // the other one is a mistake worth reporting.
        if (e != quote) {
          return ErrorAt(escape, absl::StrCat("\\", std::string(1, e), " in a ",
                                              std::string(1, quote), "-quoted string"));
        }
        out += e;
        break;
      case 'x': {
        const int hi = HexValue(Peek());
        Advance(1);
        const int lo = HexValue(Peek());
        Advance(1);
        if (hi < 0 || lo < 0) return ErrorAt(escape, "\\x needs two hexadecimal digits");
        out += static_cast<char>(hi * 16 + lo);
        break;
      }
      default:
        return ErrorAt(escape, absl::StrCat("unknown escape \\", std::string(1, e),
                                            " (known: \\\\ \\/ \\b \\f \\n \\r \\t \\xHH \\",
                                            std::string(1, quote), ")"));
    }
  }
  return ErrorAt(start,
                 absl::StrCat("string opened with ", std::string(1, quote), " is never closed"));
}

std::string Scanner::Upcoming() const {
  if (AtEnd()) return "the end of the condition";
  std::string_view rest = text_.substr(pos_.offset, 16);
  if (const size_t nl = rest.find('\n'); nl != std::string_view::npos) rest = rest.substr(0, nl);
  return absl::StrCat("'", Sv(rest), text_.size() - pos_.offset > rest.size() ? "...'" : "'");
}

absl::Status Scanner::ErrorAt(const SourcePos& at, std::string_view what) {
  return absl::InvalidArgumentError(
      absl::StrCat("line ", at.line, ", column ", at.column, ": ", Sv(what)));
}

}  // namespace kestrel::engine::filter
