#include "ring_layout.h"

#include <bpf/libbpf.h>
#include <gtest/gtest.h>

#include "libpman.h"

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

TEST(RingLayoutTest, AutoResolvesToAConcreteTopology) {
  for (uint32_t n : {1u, 2u, 4u, 16u, 64u, 256u}) {
    absl::StatusOr<RingLayout> l = PlanRingLayout(n, PMAN_CPUS_PER_BUFFER_AUTO, 1 << 20);
    ASSERT_TRUE(l.ok()) << n;
    EXPECT_EQ(l->cpus_per_buffer, AutoCpusPerBuffer(n) >= n ? 0 : AutoCpusPerBuffer(n));
    EXPECT_NE(l->cpus_per_buffer, PMAN_CPUS_PER_BUFFER_AUTO);
    EXPECT_EQ(l->CpusWithRing(), n);
  }
}

TEST(RingLayoutTest, AutoSharesOneRingPerPairOfCpus) {
  EXPECT_EQ(PlanRingLayout(1, PMAN_CPUS_PER_BUFFER_AUTO, 1 << 20)->n_rings, 1u);
  EXPECT_EQ(PlanRingLayout(2, PMAN_CPUS_PER_BUFFER_AUTO, 1 << 20)->n_rings, 1u);
  EXPECT_EQ(PlanRingLayout(2, PMAN_CPUS_PER_BUFFER_AUTO, 1 << 20)->cpus_per_buffer, 0u);
  EXPECT_EQ(PlanRingLayout(5, PMAN_CPUS_PER_BUFFER_AUTO, 1 << 20)->n_rings, 3u);
  EXPECT_EQ(PlanRingLayout(64, PMAN_CPUS_PER_BUFFER_AUTO, 1 << 20)->n_rings, 32u);
}

TEST(RingLayoutTest, OfflineGroupsGetNoRingAndRingIdsStayDense) {
  const std::vector<bool> online = {true, true, false, false, false, true};
  absl::StatusOr<RingLayout> l = PlanRingLayout(6, 2, 1 << 20, &online);
  ASSERT_TRUE(l.ok());
  EXPECT_EQ(l->n_rings, 2u);
  EXPECT_EQ(l->RingOfCpu(0), 0u);
  EXPECT_EQ(l->RingOfCpu(1), 0u);
  EXPECT_EQ(l->RingOfCpu(2), RingLayout::kNoRing);
  EXPECT_EQ(l->RingOfCpu(3), RingLayout::kNoRing);
  EXPECT_EQ(l->RingOfCpu(4), 1u);  // shares with online CPU 5
  EXPECT_EQ(l->RingOfCpu(5), 1u);
  EXPECT_EQ(l->CpusWithRing(), 4u);
}

TEST(RingLayoutTest, SharedRingCoversEveryCpuEvenWhenSomeAreOffline) {
  const std::vector<bool> online = {true, false, false};
  absl::StatusOr<RingLayout> l = PlanRingLayout(3, 0, 1 << 20, &online);
  ASSERT_TRUE(l.ok());
  EXPECT_EQ(l->n_rings, 1u);
  EXPECT_EQ(l->CpusWithRing(), 3u);
}

TEST(RingLayoutTest, RejectsAnOnlineMapOfTheWrongSizeOrWithNoOnlineCpu) {
  const std::vector<bool> short_map = {true};
  EXPECT_FALSE(PlanRingLayout(2, 1, 1 << 20, &short_map).ok());
  const std::vector<bool> none = {false, false};
  EXPECT_FALSE(PlanRingLayout(2, 1, 1 << 20, &none).ok());
}

TEST(CpuListTest, ParsesRangesAndSingles) {
  absl::StatusOr<std::vector<bool>> cpus = ParseCpuList("0-2,5,7-7\n", 8);
  ASSERT_TRUE(cpus.ok()) << cpus.status();
  EXPECT_EQ(*cpus, (std::vector<bool>{true, true, true, false, false, true, false, true}));
}

TEST(CpuListTest, RejectsMalformedAndOutOfRangeLists) {
  EXPECT_FALSE(ParseCpuList("", 4).ok());
  EXPECT_FALSE(ParseCpuList("3-1", 4).ok());
  EXPECT_FALSE(ParseCpuList("0-4", 4).ok());
  EXPECT_FALSE(ParseCpuList("a", 4).ok());
  EXPECT_FALSE(ParseCpuList("1,", 4).ok());
}

TEST(CpuListTest, ThisMachineHasAnOnlineCpu) {
  absl::StatusOr<std::vector<bool>> cpus = ReadOnlineCpus(libbpf_num_possible_cpus());
  ASSERT_TRUE(cpus.ok()) << cpus.status();
  EXPECT_TRUE((*cpus)[0]);
}

}  // namespace
}  // namespace kestrel::pman
