// The one escaper: hostile strings in text and JSON.
#include "engine/output/escape.h"

#include <gtest/gtest.h>

#include <string>

#include "../support/strict_json.h"

namespace kestrel::engine {
namespace {

using ::kestrel::testing::StrictJson;

std::string Text(std::string_view s) {
  std::string out;
  AppendTextEscaped(out, s);
  return out;
}

std::string Json(std::string_view s) {
  std::string out;
  AppendJsonString(out, s);
  return out;
}

// Text may hold printable ASCII only: no byte can reach the terminal raw.
void ExpectPrintableAscii(const std::string& s) {
  for (char c : s) {
    EXPECT_TRUE(c >= 0x20 && c < 0x7f) << "byte " << static_cast<int>(c) << " in " << s;
  }
}

TEST(EscapeTest, TextPassesPrintableAscii) {
  EXPECT_EQ(Text("cat /etc/hostname"), "cat /etc/hostname");
}

TEST(EscapeTest, TextEscapesEscNewlineBackslashAndQuote) {
  EXPECT_EQ(Text("\x1b[2Jx"), "\\x1b[2Jx");
  EXPECT_EQ(Text("a\nb\r\t"), "a\\x0ab\\x0d\\x09");
  EXPECT_EQ(Text("back\\slash \"q\""), "back\\\\slash \\\"q\\\"");
  EXPECT_EQ(Text(std::string("nul\0x", 5)), "nul\\x00x");
  EXPECT_EQ(Text("\x7f"), "\\x7f");
}

TEST(EscapeTest, TextEscapesEveryByteAbove0x7e) {
  EXPECT_EQ(Text("caf\xc3\xa9"), "caf\\xc3\\xa9");  // UTF-8 too: C1 controls hide there
  EXPECT_EQ(Text("\xff\x80"), "\\xff\\x80");
  std::string all;
  for (int b = 0; b < 256; ++b) all.push_back(static_cast<char>(b));
  ExpectPrintableAscii(Text(all));
}

TEST(EscapeTest, TextQuotedWrapsInQuotes) {
  std::string out;
  AppendTextQuoted(out, "a\"b\n");
  EXPECT_EQ(out, "\"a\\\"b\\x0a\"");
}

TEST(EscapeTest, JsonPassesValidUtf8) {
  EXPECT_EQ(Json("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x90\xa6"),
            "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x90\xa6\"");
}

TEST(EscapeTest, JsonEscapesControlsQuoteAndBackslash) {
  EXPECT_EQ(Json("\x1b[2J\n\"\\\x7f"), "\"\\u001b[2J\\u000a\\\"\\\\\\u007f\"");
  EXPECT_EQ(Json(std::string("\0", 1)), "\"\\u0000\"");
  EXPECT_EQ(Json("\xc2\x9b"), "\"\\u009b\"");  // C1 CSI, valid UTF-8 but a control
}

// Each maximal ill-formed subsequence becomes one U+FFFD (EF BF BD).
TEST(EscapeTest, JsonReplacesInvalidUtf8WithFffd) {
  const std::string r = "\xef\xbf\xbd";
  EXPECT_EQ(Json("a\xff"), "\"a" + r + "\"");
  EXPECT_EQ(Json("\x80"), "\"" + r + "\"");                          // stray continuation
  EXPECT_EQ(Json("\xc3"), "\"" + r + "\"");                          // truncated at the end
  EXPECT_EQ(Json("\xc0\xaf"), "\"" + r + r + "\"");                  // overlong '/'
  EXPECT_EQ(Json("\xed\xa0\x80"), "\"" + r + r + r + "\"");          // a surrogate
  EXPECT_EQ(Json("\xf4\x90\x80\x80"), "\"" + r + r + r + r + "\"");  // > U+10FFFF
  EXPECT_EQ(Json("\xe2\x82x"), "\"" + r + "x\"");                    // cut short by ASCII: one
  EXPECT_EQ(Json("\xf0\x9f\x90\xc3\xa9"), "\"" + r + "\xc3\xa9\"");  // cut short by é
  EXPECT_EQ(Json("caf\xe9"), "\"caf" + r + "\"");                    // Latin-1 é is no UTF-8
}

TEST(EscapeTest, JsonIsStrictlyValidForEveryByteAndPair) {
  std::string all;
  for (int b = 0; b < 256; ++b) all.push_back(static_cast<char>(b));
  EXPECT_EQ(StrictJson::Check(Json(all)), "");
  for (int a = 0x80; a < 256; ++a) {
    for (int b = 0; b < 256; b += 7) {
      const std::string s = {static_cast<char>(a), static_cast<char>(b), '\xbf', '\x80'};
      ASSERT_EQ(StrictJson::Check(Json(s)), "") << a << " " << b;
    }
  }
}

TEST(StrictJsonTest, RejectsWhatJsonForbids) {
  EXPECT_EQ(StrictJson::Check("{\"a\":[1,-2.5e3,true,null,\"x\"]}"), "");
  EXPECT_NE(StrictJson::Check("\"raw\nnewline\""), "");
  EXPECT_NE(StrictJson::Check("\"\xff\""), "");
  EXPECT_NE(StrictJson::Check("\"\\x41\""), "");
  EXPECT_NE(StrictJson::Check("\"\\udc80\""), "");
  EXPECT_NE(StrictJson::Check("{\"a\":1,}"), "");
  EXPECT_NE(StrictJson::Check("{} {}"), "");
}

}  // namespace
}  // namespace kestrel::engine
