#include "ring_options.h"

#include <string>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"
#include "libpman.h"

namespace kestrel::cli {

absl::StatusOr<uint64_t> ParseBufferBytes(std::string_view text) {
  if (text == "small") return PMAN_BUFFER_BYTES_SMALL;
  if (text == "default") return PMAN_DEFAULT_BUFFER_BYTES;
  if (text == "large") return PMAN_BUFFER_BYTES_LARGE;
  std::string digits(text);
  int shift = 0;
  if (!digits.empty()) {
    switch (digits.back()) {
      case 'K':
      case 'k':
        shift = 10;
        break;
      case 'M':
      case 'm':
        shift = 20;
        break;
      case 'G':
      case 'g':
        shift = 30;
        break;
      default:
        break;
    }
    if (shift != 0) digits.pop_back();
  }
  uint64_t n = 0;
  if (!absl::SimpleAtoi(digits, &n) || n == 0 || n > (UINT64_MAX >> shift)) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "\"%s\" is not a size: use small, default, large, or bytes such as 4M", std::string(text)));
  }
  return n << shift;
}

absl::StatusOr<uint32_t> ParseCpusPerBuffer(std::string_view text) {
  if (text == "auto") return PMAN_CPUS_PER_BUFFER_AUTO;
  uint32_t n = 0;
  if (!absl::SimpleAtoi(std::string(text), &n) || n == PMAN_CPUS_PER_BUFFER_AUTO) {
    return absl::InvalidArgumentError(
        absl::StrFormat("\"%s\" is not auto or a number of CPUs per ring", std::string(text)));
  }
  return n;
}

}  // namespace kestrel::cli
