// What load shedding thins, and when it switches. The switch on a live
// probe is tested end to end (test/e2e/run_load_shedding_test.cpp).
#include "agent/control/load_shedding.h"

#include <gtest/gtest.h>
#include <sys/syscall.h>

#include "engine/state/state_syscalls.h"
#include "shared/capture_settings.h"

namespace kestrel::agent {
namespace {

using engine::rules::Priority;
using Change = SheddingSwitch::Change;

constexpr size_t kTable = 512;

std::vector<ChosenSyscall> SetOf(std::vector<uint32_t> ids) {
  std::vector<ChosenSyscall> set;
  for (uint32_t id : ids) set.push_back({id, {}});
  return set;
}

TEST(PlanSheddingTest, SamplesWhatNeitherTheStateNorAKeptRuleNeeds) {
  const std::vector<ChosenSyscall> set = SetOf({SYS_openat, SYS_getppid, SYS_mkdir, SYS_getuid});
  const std::vector<RuleSyscalls> rules = {
      {"critical", {SYS_mkdir}, false, Priority::kCritical},
      {"debug", {SYS_getppid}, false, Priority::kDebug},
  };
  // getuid: no rule (base_syscalls.custom_set put it there).
  SheddingPlan plan = PlanShedding(set, rules, Priority::kDebug, kTable);
  EXPECT_EQ(plan.sampled, (std::vector<uint32_t>{SYS_getuid}));
  plan = PlanShedding(set, rules, Priority::kWarning, kTable);
  EXPECT_EQ(plan.sampled, (std::vector<uint32_t>{SYS_getppid, SYS_getuid}));
  EXPECT_TRUE(plan.rule_needing_all.empty());
  ASSERT_EQ(plan.classes.size(), kTable);
  EXPECT_EQ(plan.classes[SYS_getppid], KESTREL_DROP_SAMPLED);
  EXPECT_EQ(plan.classes[SYS_getuid], KESTREL_DROP_SAMPLED);
  EXPECT_EQ(plan.classes[SYS_mkdir], KESTREL_DROP_NEVER);
  // openat keeps the fd table right: never thinned, whatever the rules.
  EXPECT_EQ(plan.classes[SYS_openat], KESTREL_DROP_NEVER);
  for (uint32_t id : engine::StateSyscalls()) EXPECT_EQ(plan.classes[id], KESTREL_DROP_NEVER) << id;
  // Not captured at all: nothing to thin.
  EXPECT_EQ(plan.classes[SYS_read], KESTREL_DROP_NEVER);
}

TEST(PlanSheddingTest, AKeptRuleOnEverySyscallLeavesNothingToShed) {
  const std::vector<RuleSyscalls> rules = {{"everything", {}, true, Priority::kError}};
  SheddingPlan plan = PlanShedding(SetOf({SYS_getppid}), rules, Priority::kWarning, kTable);
  EXPECT_TRUE(plan.sampled.empty());
  EXPECT_EQ(plan.rule_needing_all, "everything");
  // The same rule below the kept priority needs nothing.
  plan = PlanShedding(SetOf({SYS_getppid}), rules, Priority::kCritical, kTable);
  EXPECT_EQ(plan.sampled, (std::vector<uint32_t>{SYS_getppid}));
}

TEST(PlanSheddingTest, DescribedInOneLine) {
  LoadSheddingConfig config;
  const std::vector<RuleSyscalls> rules = {{"debug", {SYS_getppid}, false, Priority::kDebug}};
  EXPECT_EQ(DescribeShedding(
                PlanShedding(SetOf({SYS_getppid, SYS_getuid}), rules, Priority::kWarning, kTable),
                config),
            "load shedding keeps 1 in 16 calls of getppid, getuid when a ring is 50% full");
  EXPECT_EQ(
      DescribeShedding(PlanShedding(SetOf({SYS_getppid}), rules, Priority::kDebug, kTable), config),
      "load shedding has nothing to thin: rules at or above Debug and the state need every "
      "syscall captured");
  EXPECT_EQ(
      DescribeShedding(PlanShedding(SetOf({SYS_getppid}), {{"all", {}, true, Priority::kDebug}},
                                    Priority::kDebug, kTable),
                       config),
      "load shedding has nothing to thin: rule \"all\" needs every syscall");
  config.enabled = false;
  EXPECT_EQ(DescribeShedding({}, config), "load shedding off");
}

LoadSample At(double fill, uint64_t now_ns, double input_rate = 0, double capacity = 0) {
  return {fill, now_ns, input_rate, capacity};
}

TEST(SheddingSwitchTest, StartsAtStartFillStopsAtStopFillAfterMinSeconds) {
  LoadSheddingConfig config;  // 0.5, 0.1, 1 s
  SheddingSwitch s(config);
  constexpr uint64_t kSecond = 1'000'000'000;
  EXPECT_EQ(s.Observe(At(0.49, 1 * kSecond)), Change::kNone);
  EXPECT_EQ(s.Observe(At(0.5, 2 * kSecond)), Change::kStart);
  EXPECT_TRUE(s.on());
  EXPECT_EQ(s.on_since_ns(), 2 * kSecond);
  EXPECT_EQ(s.Observe(At(0.9, 2 * kSecond + 1)), Change::kNone);
  // Drained, but not on for a second yet: no flapping.
  EXPECT_EQ(s.Observe(At(0.0, 2 * kSecond + kSecond / 2)), Change::kNone);
  // On long enough, but still above stop_fill.
  EXPECT_EQ(s.Observe(At(0.11, 4 * kSecond)), Change::kNone);
  EXPECT_EQ(s.Observe(At(0.1, 4 * kSecond)), Change::kStop);
  EXPECT_FALSE(s.on());
  EXPECT_EQ(s.Observe(At(0.3, 5 * kSecond)), Change::kNone);
  EXPECT_EQ(s.Observe(At(0.7, 5 * kSecond)), Change::kStart);
}

TEST(SheddingSwitchTest, StaysOnWhileTheWholeInputWouldOverrunTheReader) {
  SheddingSwitch s(LoadSheddingConfig{});
  constexpr uint64_t kSecond = 1'000'000'000;
  EXPECT_EQ(s.Observe(At(0.6, 0)), Change::kStart);
  // Drained by thinning: 5 M/s would come back to a reader taking 0.4 M/s.
  EXPECT_EQ(s.Observe(At(0.0, 2 * kSecond, 5e6, 4e5)), Change::kNone);
  // 0.33 M/s is more than 80% of 0.4 M/s.
  EXPECT_EQ(s.Observe(At(0.0, 3 * kSecond, 3.3e5, 4e5)), Change::kNone);
  EXPECT_EQ(s.Observe(At(0.0, 3 * kSecond, 3.2e5, 4e5)), Change::kStop);
}

}  // namespace
}  // namespace kestrel::agent
