// Reads a condition's text piece by piece for the parser: blanks, names,
// operators and literals, keeping the line and column of every piece.
#ifndef KESTREL_ENGINE_FILTER_SCANNER_H_
#define KESTREL_ENGINE_FILTER_SCANNER_H_

#include <optional>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "engine/filter/ast.h"

namespace kestrel::engine::filter {

// Debian's abseil has a string_view of its own, which std::string_view does
// not convert to.
inline absl::string_view Sv(std::string_view s) { return absl::string_view(s.data(), s.size()); }

class Scanner {
 public:
  explicit Scanner(std::string_view text) : text_(text) {}

  SourcePos pos() const { return pos_; }
  bool AtEnd() const { return pos_.offset >= text_.size(); }
  char Peek() const { return AtEnd() ? '\0' : text_[pos_.offset]; }

  // Skips blanks; returns whether there were any.
  bool SkipBlanks();

  // Consumes `s` if the text continues with it.
  bool TryChar(char c);
  bool TryText(std::string_view s);

  // Consumes the keyword `word` (`and`, `contains` ...) if the text
  // continues with it and no name character follows.
  bool TryWord(std::string_view word);

  // A dotted field name whose parts each start with a letter
  // (`proc.aname`, `evt.arg.name`), or an identifier with no dot (a macro,
  // a list or a transformer name). Empty when neither starts here.
  std::string ReadName();

  // A bare word: anything up to a blank, a parenthesis, a comma, '=' or a
  // quote. Empty when none starts here.
  std::string ReadBareWord();

  // A field argument between brackets, bare (up to ']', a quote or a blank).
  std::string ReadBareArgument();

  // A '…' or "…" literal with its escapes resolved (\\ \/ \b \f \n \r \t
  // \xHH, and the quote that opened it). nullopt when no quote starts here;
  // an error for an unterminated literal or an unknown escape.
  absl::StatusOr<std::optional<std::string>> ReadQuoted();

  // The next few characters, for "found ..." in messages.
  std::string Upcoming() const;

  // An InvalidArgument error "line L, column C: <what>" at `at`.
  static absl::Status ErrorAt(const SourcePos& at, std::string_view what);

 private:
  void Advance(size_t n);

  std::string_view text_;
  SourcePos pos_;
};

}  // namespace kestrel::engine::filter

#endif  // KESTREL_ENGINE_FILTER_SCANNER_H_
