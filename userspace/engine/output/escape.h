// The one escaper for strings that come from traced processes (comm, paths,
// argv, any string parameter): they may hold any bytes, and must never be
// able to move the cursor of, clear, or add lines to what a watcher reads.
//
// Text: printable ASCII (0x20..0x7e) passes, except '\' -> "\\" and
// '"' -> "\""; every other byte (controls, ESC, newline, DEL, and every byte
// >= 0x80, UTF-8 included) becomes "\xNN" with two lowercase hex digits.
// The result is pure printable ASCII and the input can be recovered exactly.
//
// JSON: the output is valid UTF-8 and valid JSON for any input. Valid UTF-8
// passes through unchanged, except '"' and '\' (escaped as JSON requires)
// and control characters (U+0000..U+001F, U+007F..U+009F), written as
// "\u00NN". What is not well-formed UTF-8 (a stray continuation byte, a
// truncated or overlong sequence, a surrogate, a code point above U+10FFFF)
// becomes U+FFFD, one for each maximal ill-formed subsequence as Unicode
// recommends (and as Falco's JSON writer replaces them): a consumer decodes
// every string, and the text it reads is what the process wrote wherever
// that was text.
#ifndef KESTREL_ENGINE_OUTPUT_ESCAPE_H_
#define KESTREL_ENGINE_OUTPUT_ESCAPE_H_

#include <string>
#include <string_view>

#include "output_style.h"

namespace kestrel::engine {

// `s` escaped for text, unquoted (for columns such as the comm).
void AppendTextEscaped(std::string& out, std::string_view s);

// `s` escaped for text, between double quotes (paths, argv, buffers).
void AppendTextQuoted(std::string& out, std::string_view s);

// `s` as a JSON string, quotes included.
void AppendJsonString(std::string& out, std::string_view s);

// AppendTextQuoted or AppendJsonString, as `style` asks.
void AppendQuoted(std::string& out, std::string_view s, OutputStyle style);

}  // namespace kestrel::engine

#endif  // KESTREL_ENGINE_OUTPUT_ESCAPE_H_
