#include "wall_time.h"

#include <ctime>

#include "absl/strings/str_format.h"

namespace kestrel::engine {

void AppendWallTime(std::string& out, uint64_t wall_ns) {
  const time_t seconds = static_cast<time_t>(wall_ns / 1'000'000'000ULL);
  tm local{};
  localtime_r(&seconds, &local);
  char hms[16];
  std::strftime(hms, sizeof(hms), "%H:%M:%S", &local);
  absl::StrAppendFormat(&out, "%s.%09u", hms, wall_ns % 1'000'000'000ULL);
}

}  // namespace kestrel::engine
