#include "recorder_layout.h"

#include <gtest/gtest.h>

#include "shared/recorder_format.h"

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

// A ring CPUs share is taken in batches once it holds 64 of them; a ring
// per CPU, a ring of one CPU or a small ring is taken slot by slot.
TEST(RecorderLayoutTest, OnlyALargeSharedRingIsTakenInBatches) {
  const uint64_t batches_bytes =
      uint64_t{kRecorderBatchSlots} * kRecorderBatchesPerRing * KESTREL_RECORDER_SLOT_BYTES;
  absl::StatusOr<RecorderLayout> l = PlanRecorderLayout(batches_bytes, false, 2);
  ASSERT_TRUE(l.ok());
  EXPECT_EQ(uint32_t{1} << l->batch_shift, kRecorderBatchSlots);
  EXPECT_EQ(PlanRecorderLayout(batches_bytes / 2, false, 2)->batch_shift, 0u);
  EXPECT_EQ(PlanRecorderLayout(batches_bytes, false, 1)->batch_shift, 0u);
  EXPECT_EQ(PlanRecorderLayout(batches_bytes * 2, true, 2)->batch_shift, 0u);
}

TEST(RecorderLayoutTest, RejectsSizesThatAreNotUsable) {
  EXPECT_FALSE(PlanRecorderLayout(3 << 20, false, 2).ok());    // not a power of two
  EXPECT_FALSE(PlanRecorderLayout(32 << 10, false, 2).ok());   // under 64 KiB
  EXPECT_FALSE(PlanRecorderLayout(64 << 10, true, 512).ok());  // one slot per ring
  EXPECT_FALSE(PlanRecorderLayout(1 << 20, false, 0).ok());
}

}  // namespace
}  // namespace kestrel::pman
