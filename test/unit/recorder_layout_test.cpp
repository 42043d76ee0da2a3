#include "recorder_layout.h"

#include <gtest/gtest.h>

namespace kestrel::pman {
namespace {

TEST(RecorderLayoutTest, SharedRingTakesAllTheBytes) {
  absl::StatusOr<RecorderLayout> l = PlanRecorderLayout(64ULL << 20, false, 2);
  ASSERT_TRUE(l.ok());
  EXPECT_EQ(l->n_rings, 1u);
  EXPECT_EQ(l->slots_per_ring, (64u << 20) / 128);
}

TEST(RecorderLayoutTest, PerCpuSplitsTheBytesOverAPowerOfTwoOfRings) {
  absl::StatusOr<RecorderLayout> l = PlanRecorderLayout(1 << 20, true, 3);
  ASSERT_TRUE(l.ok());
  EXPECT_EQ(l->n_rings, 4u);
  EXPECT_EQ(l->slots_per_ring, (1u << 20) / 128 / 4);
  EXPECT_EQ(l->TotalSlots(), (1u << 20) / 128);
}

TEST(RecorderLayoutTest, RejectsSizesThatAreNotUsable) {
  EXPECT_FALSE(PlanRecorderLayout(3 << 20, false, 2).ok());    // not a power of two
  EXPECT_FALSE(PlanRecorderLayout(32 << 10, false, 2).ok());   // under 64 KiB
  EXPECT_FALSE(PlanRecorderLayout(64 << 10, true, 512).ok());  // one slot per ring
  EXPECT_FALSE(PlanRecorderLayout(1 << 20, false, 0).ok());
}

}  // namespace
}  // namespace kestrel::pman
