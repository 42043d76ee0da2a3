#include "map_memlock.h"

#include <fstream>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"
#include "absl/strings/strip.h"

namespace kestrel::pman {

absl::StatusOr<uint64_t> MapMemlockBytes(int map_fd) {
  const std::string path = absl::StrFormat("/proc/self/fdinfo/%d", map_fd);
  std::ifstream in(path);
  if (!in) return absl::NotFoundError(absl::StrFormat("cannot read %s", path));
  std::string line;
  while (std::getline(in, line)) {
    absl::string_view rest = line;
    if (!absl::ConsumePrefix(&rest, "memlock:")) continue;
    uint64_t bytes = 0;
    if (absl::SimpleAtoi(absl::StripAsciiWhitespace(rest), &bytes)) return bytes;
  }
  return absl::NotFoundError(absl::StrFormat("%s has no memlock line", path));
}

}  // namespace kestrel::pman
