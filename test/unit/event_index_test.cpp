// KESTREL_EVENT_INDEX is the one mapping from event type to slot that the
// probe's schema tables, its custom_fillers program array and libpman's
// filler registration all use: it must give every specific event its own
// slot inside the array.
#include <gtest/gtest.h>

#include <set>

#include "shared/event_types.h"

namespace {

#define KESTREL_EVENT_TYPE_ENTRY(name, syscall, params) KESTREL_EVT_##name,
constexpr int kSpecificEvents[] = {KESTREL_SYSCALL_EVENTS(KESTREL_EVENT_TYPE_ENTRY)};
#undef KESTREL_EVENT_TYPE_ENTRY

TEST(EventIndexTest, EverySpecificEventHasItsOwnSlot) {
  std::set<int> slots;
  for (const int type : kSpecificEvents) {
    const int slot = KESTREL_EVENT_INDEX(type);
    EXPECT_GE(slot, 0) << "event type " << type;
    EXPECT_LT(slot, KESTREL_N_SPECIFIC_EVENTS) << "event type " << type;
    EXPECT_TRUE(slots.insert(slot).second) << "event type " << type << " shares slot " << slot;
  }
  EXPECT_EQ(slots.size(), static_cast<size_t>(KESTREL_N_SPECIFIC_EVENTS));
}

TEST(EventIndexTest, EventsOfNoSyscallHaveNoSlot) {
  EXPECT_LT(KESTREL_EVENT_INDEX(KESTREL_EVT_GENERIC_SYSCALL), 0);
  EXPECT_LT(KESTREL_EVENT_INDEX(KESTREL_EVT_SYSCALL_BASE), 0);
}

}  // namespace
