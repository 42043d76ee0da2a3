// The wall time of boot every probe loader stamps its settings with: the
// kernel's offsets, identical in every process, so that a capture file
// replays to the times a live run printed.
#include "boot_clock.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <string>

namespace kestrel::pman {
namespace {

// The head of /proc/timer_list as kernel 6.18 prints it (timers elided),
// with a second CPU whose offsets must not be taken.
constexpr char kTimerList[] = R"(Timer List Version: v0.10
HRTIMER_MAX_CLOCK_BASES: 8
now at 35763108534517 nsecs

cpu: 0
 clock 0:
  .base:       0000000080eea96c
  .index:      0
  .resolution: 1 nsecs
  .offset:     0 nsecs
active timers:
 #0: <00000000212571ac>, tick_nohz_handler, S:01
 # expires at 35763112000000-35763112000000 nsecs [in 3465483 to 3465483 nsecs]
 clock 1:
  .base:       00000000c8815f6e
  .index:      1
  .resolution: 1 nsecs
  .offset:     1796152012653238614 nsecs
active timers:
 clock 2:
  .base:       00000000b4d52bc0
  .index:      2
  .resolution: 1 nsecs
  .offset:     5000 nsecs
active timers:
 clock 3:
  .base:       000000002ad53d12
  .index:      3
  .resolution: 1 nsecs
  .offset:     1796152049653238614 nsecs
active timers:
cpu: 1
 clock 1:
  .offset:     7 nsecs
 clock 2:
  .offset:     3 nsecs
)";

TEST(BootClockTest, TimerListGivesRealtimeMinusBoottimeOffsetOfTheFirstCpu) {
  EXPECT_EQ(BootTimeFromTimerList(kTimerList), 1796152012653238614ULL - 5000);
}

TEST(BootClockTest, TimerListWithoutBothOffsetsGivesNothing) {
  std::string no_boottime = kTimerList;
  no_boottime.erase(no_boottime.find(" clock 2:"));
  EXPECT_EQ(BootTimeFromTimerList(no_boottime), std::nullopt);
  EXPECT_EQ(BootTimeFromTimerList(""), std::nullopt);
  EXPECT_EQ(BootTimeFromTimerList("cpu: 0\n clock 1:\n  .offset:     x nsecs\n"), std::nullopt);
}

TEST(BootClockTest, BootTimeIsWhatTheClocksSay) {
  const uint64_t measured = ClockNs(CLOCK_REALTIME) - ClockNs(CLOCK_BOOTTIME);
  const uint64_t boot = BootTimeWallNs();
  // The measurement is off by the time between its two readings.
  EXPECT_LT(boot > measured ? boot - measured : measured - boot, 1'000'000u);
}

// Only root reads /proc/timer_list: unprivileged, the boot time is measured
// and two readings differ by the microseconds between them.
TEST(BootClockTest, AsRootEveryReadingIsTheSame) {
  if (geteuid() != 0) GTEST_SKIP() << "unprivileged: /proc/timer_list is root's";
  const uint64_t first = BootTimeWallNs();
  for (int i = 0; i < 100; ++i) ASSERT_EQ(BootTimeWallNs(), first);
}

}  // namespace
}  // namespace kestrel::pman
