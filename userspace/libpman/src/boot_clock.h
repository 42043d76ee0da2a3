// Clock readings shared by the probe loaders.
#ifndef KESTREL_LIBPMAN_BOOT_CLOCK_H_
#define KESTREL_LIBPMAN_BOOT_CLOCK_H_

#include <time.h>

#include <cstdint>

namespace kestrel::pman {

inline uint64_t ClockNs(clockid_t clock) {
  timespec ts{};
  clock_gettime(clock, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1'000'000'000ULL + ts.tv_nsec;
}

// Wall-clock time of boot: added to a record's CLOCK_BOOTTIME stamp.
inline uint64_t BootTimeWallNs() { return ClockNs(CLOCK_REALTIME) - ClockNs(CLOCK_BOOTTIME); }

}  // namespace kestrel::pman

#endif  // KESTREL_LIBPMAN_BOOT_CLOCK_H_
