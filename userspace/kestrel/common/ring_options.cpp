#include "kestrel/common/ring_options.h"

#include <unistd.h>

#include <fstream>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"
#include "kestrel/common/cli_app.h"
#include "libpman.h"

namespace kestrel::cli {
namespace {

// The kernel caps a ringbuf's data area below 4 GiB; libpman allows 2 GiB.
constexpr uint64_t kMaxRingBytes = 1ULL << 31;

absl::StatusOr<uint64_t> ParseSize(std::string_view text) {
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
  if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos ||
      !absl::SimpleAtoi(digits, &n) || n == 0 || n > (UINT64_MAX >> shift)) {
    return absl::InvalidArgumentError(
        Quote(text) + " is not a size: use small, default, large, or bytes such as 4M");
  }
  return n << shift;
}

}  // namespace

absl::StatusOr<uint64_t> ParseBufferBytes(std::string_view text) {
  absl::StatusOr<uint64_t> bytes = ParseSize(text);
  if (!bytes.ok()) return bytes;
  const uint64_t page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  if (*bytes < page || *bytes > kMaxRingBytes || (*bytes & (*bytes - 1)) != 0) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "%s is not a ring size: use a power of two from one page (%u) to 2G", Quote(text), page));
  }
  return bytes;
}

absl::StatusOr<uint32_t> ParseCpusPerBuffer(std::string_view text) {
  if (text == "auto") return PMAN_CPUS_PER_BUFFER_AUTO;
  uint32_t n = 0;
  if (text.empty() || text.find_first_not_of("0123456789") != std::string_view::npos ||
      !absl::SimpleAtoi(std::string(text), &n) || n == PMAN_CPUS_PER_BUFFER_AUTO) {
    return absl::InvalidArgumentError(Quote(text) + " is not auto or a number of CPUs per ring");
  }
  return n;
}

uint32_t PossibleCpuCount() {
  // A list such as "0-1" or "0-3,8-11": CPU ids run up to the last number.
  std::ifstream file("/sys/devices/system/cpu/possible");
  std::string list;
  if (!std::getline(file, list)) return 0;
  const size_t last = list.find_last_of(",-");
  uint32_t highest = 0;
  if (!absl::SimpleAtoi(last == std::string::npos ? list : list.substr(last + 1), &highest)) {
    return 0;
  }
  return highest + 1;
}

CLI::Option* BufferBytesOption(CLI::App& app, uint64_t* bytes) {
  CLI::Validator to_bytes(
      [](std::string& text) -> std::string {
        absl::StatusOr<uint64_t> parsed = ParseBufferBytes(text);
        if (!parsed.ok()) return std::string(parsed.status().message());
        text = std::to_string(*parsed);
        return "";
      },
      "");
  return app
      .add_option("--buffer-bytes", *bytes, "bytes per ring: small, default, large, or N[K|M|G]")
      ->type_name("small|default|large|N[K|M|G]")
      ->transform(to_bytes);
}

CLI::Option* CpusPerBufferOption(CLI::App& app, uint32_t* cpus) {
  CLI::Validator to_count(
      [](std::string& text) -> std::string {
        absl::StatusOr<uint32_t> parsed = ParseCpusPerBuffer(text);
        if (!parsed.ok()) return std::string(parsed.status().message());
        const uint32_t possible = PossibleCpuCount();
        if (*parsed != PMAN_CPUS_PER_BUFFER_AUTO && possible != 0 && *parsed > possible) {
          return absl::StrFormat("%s is more than the %u possible CPUs of this machine",
                                 Quote(text), possible);
        }
        text = std::to_string(*parsed);
        return "";
      },
      "");
  return app
      .add_option("--cpus-per-buffer", *cpus,
                  "CPUs sharing each ring: auto, or N (0 = one ring for all CPUs)")
      ->type_name("auto|N")
      ->transform(to_count);
}

CLI::Option* OnlineCpusOnlyOption(CLI::App& app, bool* only) {
  return app.add_flag("--online-cpus-only", *only,
                      "give rings only to CPUs online now (CPUs brought up later are not traced)");
}

}  // namespace kestrel::cli
