#include "ring_layout.h"

#include <gtest/gtest.h>

namespace kestrel::pman {
namespace {

TEST(RingLayoutTest, ZeroSharesOneRing) {
  absl::StatusOr<RingLayout> l = PlanRingLayout(8, 0, 1 << 20);
  ASSERT_TRUE(l.ok());
  EXPECT_EQ(l->n_rings, 1u);
  for (uint32_t cpu = 0; cpu < 8; ++cpu) EXPECT_EQ(l->RingOfCpu(cpu), 0u);
}

TEST(RingLayoutTest, GroupsCpusAndRoundsUp) {
  absl::StatusOr<RingLayout> l = PlanRingLayout(5, 2, 1 << 20);
  ASSERT_TRUE(l.ok());
  EXPECT_EQ(l->n_rings, 3u);
  EXPECT_EQ(l->RingOfCpu(0), 0u);
  EXPECT_EQ(l->RingOfCpu(1), 0u);
  EXPECT_EQ(l->RingOfCpu(2), 1u);
  EXPECT_EQ(l->RingOfCpu(4), 2u);
}

TEST(RingLayoutTest, OnePerCpu) {
  absl::StatusOr<RingLayout> l = PlanRingLayout(4, 1, 1 << 20);
  ASSERT_TRUE(l.ok());
  EXPECT_EQ(l->n_rings, 4u);
  EXPECT_EQ(l->RingOfCpu(3), 3u);
}

TEST(RingLayoutTest, RejectsSizesTheKernelWouldRefuse) {
  EXPECT_FALSE(PlanRingLayout(2, 0, 1000).ok());
  EXPECT_FALSE(PlanRingLayout(2, 0, 3 * 4096).ok());
  EXPECT_FALSE(PlanRingLayout(2, 0, 2048).ok());
  EXPECT_FALSE(PlanRingLayout(2, 0, 1ULL << 32).ok());
  EXPECT_FALSE(PlanRingLayout(0, 0, 1 << 20).ok());
}

}  // namespace
}  // namespace kestrel::pman
