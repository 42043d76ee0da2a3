// Clock readings shared by the probe loaders.
#ifndef KESTREL_LIBPMAN_BOOT_CLOCK_H_
#define KESTREL_LIBPMAN_BOOT_CLOCK_H_

#include <time.h>

#include <cstdint>
#include <optional>
#include <string_view>

namespace kestrel::pman {

inline uint64_t ClockNs(clockid_t clock) {
  timespec ts{};
  clock_gettime(clock, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1'000'000'000ULL + ts.tv_nsec;
}

// Wall-clock time of boot: added to a record's CLOCK_BOOTTIME stamp. Every
// process gets the same value while the clock is not set: the kernel's own
// offsets (BootTimeFromTimerList), so that a capture file's alerts and
// evt.time replay to the nanosecond what a live run printed. Without them
// it is measured (CLOCK_REALTIME - CLOCK_BOOTTIME), which differs between
// two processes by the microseconds between the two readings.
uint64_t BootTimeWallNs();

// The kernel's realtime offset minus its boottime offset (both from boot,
// in ns), as /proc/timer_list prints them for its first CPU's hrtimer
// bases 1 (CLOCK_REALTIME) and 2 (CLOCK_BOOTTIME): exactly what
// CLOCK_REALTIME - CLOCK_BOOTTIME is at any instant. nullopt when `text`
// lacks either (no CONFIG_HIGH_RES_TIMERS, another format).
std::optional<uint64_t> BootTimeFromTimerList(std::string_view text);

}  // namespace kestrel::pman

#endif  // KESTREL_LIBPMAN_BOOT_CLOCK_H_
