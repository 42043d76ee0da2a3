#include "boot_clock.h"

#include <cstdio>
#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace kestrel::pman {
namespace {

constexpr int kRealtimeBase = 1;
constexpr int kBoottimeBase = 2;

// A CPU's bases are listed before the next CPU's and before the tick
// devices; the first CPU's two offsets are all that is needed, so on a
// machine of many CPUs and timers the rest is never read.
std::string FirstCpuOfTimerList() {
  std::string text;
  std::FILE* f = std::fopen("/proc/timer_list", "re");
  if (f == nullptr) return text;
  char line[512];
  int cpus = 0;
  while (std::fgets(line, sizeof line, f) != nullptr) {
    if (absl::StartsWith(line, "cpu: ") && ++cpus > 1) break;
    text.append(line);
  }
  std::fclose(f);
  return text;
}

// An offset that disagrees with the clocks by more than this is stale: a
// CPU's bases are refreshed lazily after the clock is set.
constexpr uint64_t kMaxDisagreementNs = 1'000'000;

}  // namespace

std::optional<uint64_t> BootTimeFromTimerList(std::string_view text) {
  int base = -1;
  std::optional<uint64_t> realtime, boottime;
  for (absl::string_view line : absl::StrSplit(absl::string_view(text.data(), text.size()), '\n')) {
    line = absl::StripAsciiWhitespace(line);
    if (absl::StartsWith(line, "cpu: ") && (realtime || boottime)) break;
    if (absl::ConsumePrefix(&line, "clock ")) {
      if (!absl::ConsumeSuffix(&line, ":") || !absl::SimpleAtoi(line, &base)) base = -1;
      continue;
    }
    if (base != kRealtimeBase && base != kBoottimeBase) continue;
    if (!absl::ConsumePrefix(&line, ".offset:") || !absl::ConsumeSuffix(&line, " nsecs")) continue;
    uint64_t ns = 0;
    if (!absl::SimpleAtoi(absl::StripAsciiWhitespace(line), &ns)) return std::nullopt;
    (base == kRealtimeBase ? realtime : boottime) = ns;
    base = -1;
  }
  if (!realtime || !boottime || *boottime > *realtime) return std::nullopt;
  return *realtime - *boottime;
}

uint64_t BootTimeWallNs() {
  const uint64_t measured = ClockNs(CLOCK_REALTIME) - ClockNs(CLOCK_BOOTTIME);
  const std::optional<uint64_t> kernel = BootTimeFromTimerList(FirstCpuOfTimerList());
  if (!kernel) return measured;
  const uint64_t apart = *kernel > measured ? *kernel - measured : measured - *kernel;
  return apart <= kMaxDisagreementNs ? *kernel : measured;
}

}  // namespace kestrel::pman
