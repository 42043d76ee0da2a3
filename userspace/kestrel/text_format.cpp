#include "text_format.h"

#include <ctime>

#include "absl/strings/str_format.h"

namespace kestrel::cli {

void AppendWallTime(std::string& out, uint64_t wall_ns) {
  const time_t seconds = static_cast<time_t>(wall_ns / 1'000'000'000ULL);
  tm local{};
  localtime_r(&seconds, &local);
  char hms[16];
  std::strftime(hms, sizeof(hms), "%H:%M:%S", &local);
  absl::StrAppendFormat(&out, "%s.%09u", hms, wall_ns % 1'000'000'000ULL);
}

void AppendJsonString(std::string& out, std::string_view s) {
  out.push_back('"');
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out.push_back('\\');
      out.push_back(c);
    } else if (static_cast<unsigned char>(c) < 0x20) {
      absl::StrAppendFormat(&out, "\\u%04x", static_cast<unsigned char>(c));
    } else {
      out.push_back(c);
    }
  }
  out.push_back('"');
}

}  // namespace kestrel::cli
