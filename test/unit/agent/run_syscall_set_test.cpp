// The syscalls `kestrel run` captures: rules, state, base_syscalls.
#include "agent/rules/syscall_set.h"

#include <gtest/gtest.h>
#include <sys/syscall.h>

#include <algorithm>

#include "engine/decode/syscall_names.h"
#include "engine/state/state_syscalls.h"

namespace kestrel::agent {
namespace {

const ChosenSyscall* Find(const std::vector<ChosenSyscall>& set, uint32_t id) {
  for (const ChosenSyscall& s : set) {
    if (s.id == id) return &s;
  }
  return nullptr;
}

std::vector<uint32_t> Ids(const std::vector<ChosenSyscall>& set) {
  std::vector<uint32_t> ids;
  for (const ChosenSyscall& s : set) ids.push_back(s.id);
  return ids;
}

TEST(RunSyscallSetTest, RulesAndStateWithTheirReasons) {
  std::vector<std::string> warnings;
  const std::vector<ChosenSyscall> set = ChooseSyscalls(
      {{"A", {SYS_openat}, false}, {"B", {SYS_openat, SYS_connect}, false}}, {}, false, warnings);
  EXPECT_TRUE(warnings.empty());
  std::vector<uint32_t> expected = engine::StateSyscalls();
  expected.push_back(SYS_openat);
  expected.push_back(SYS_connect);
  std::sort(expected.begin(), expected.end());
  expected.erase(std::unique(expected.begin(), expected.end()), expected.end());
  EXPECT_EQ(Ids(set), expected);
  // openat and connect create descriptors: the state needs them too.
  EXPECT_EQ(Find(set, SYS_openat)->reasons,
            (std::vector<std::string>{"rule \"A\"", "rule \"B\"", "state"}));
  EXPECT_EQ(Find(set, SYS_connect)->reasons, (std::vector<std::string>{"rule \"B\"", "state"}));
  EXPECT_EQ(Find(set, SYS_close)->reasons, (std::vector<std::string>{"state"}));
}

TEST(RunSyscallSetTest, ACustomSetReplacesTheStateSetUnlessRepaired) {
  std::vector<std::string> warnings;
  std::vector<ChosenSyscall> set =
      ChooseSyscalls({{"A", {SYS_openat}, false}}, {"execve", "nosuchcall"}, false, warnings);
  EXPECT_EQ(Ids(set), (std::vector<uint32_t>{SYS_execve, SYS_openat}));
  EXPECT_EQ(Find(set, SYS_execve)->reasons, (std::vector<std::string>{"base_syscalls.custom_set"}));
  EXPECT_EQ(warnings, (std::vector<std::string>{
                          "base_syscalls.custom_set: \"nosuchcall\" is not a syscall: ignored"}));

  warnings.clear();
  set = ChooseSyscalls({{"A", {SYS_openat}, false}}, {"execve"}, true, warnings);
  EXPECT_EQ(Find(set, SYS_execve)->reasons,
            (std::vector<std::string>{"base_syscalls.custom_set", "base_syscalls.repair"}));
  EXPECT_EQ(Find(set, SYS_close)->reasons, (std::vector<std::string>{"base_syscalls.repair"}));
}

TEST(RunSyscallSetTest, RemovalsWinOverEveryReason) {
  std::vector<std::string> warnings;
  const std::vector<ChosenSyscall> set = ChooseSyscalls({{"A", {SYS_openat, SYS_close}, false}},
                                                        {"!close", "!openat"}, false, warnings);
  EXPECT_EQ(Find(set, SYS_close), nullptr);
  EXPECT_EQ(Find(set, SYS_openat), nullptr);
  EXPECT_NE(Find(set, SYS_execve), nullptr);  // the state's, with no positive custom set
}

TEST(RunSyscallSetTest, AnUnconstrainedRuleTakesEverySyscall) {
  std::vector<std::string> warnings;
  const std::vector<ChosenSyscall> set = ChooseSyscalls({{"Any", {}, true}}, {}, false, warnings);
  EXPECT_EQ(set.size(), engine::AllSyscalls().size());
  EXPECT_EQ(Find(set, SYS_getpid)->reasons,
            (std::vector<std::string>{"rule \"Any\" (no evt.type: every syscall)"}));
}

TEST(RunSyscallSetTest, FormatListsOneSyscallPerLineWithWhy) {
  const std::vector<ChosenSyscall> set = {
      {SYS_close, {"state"}},
      {SYS_openat, {"rule \"A\"", "rule \"B\"", "rule \"C\"", "rule \"D\"", "rule \"E\"", "state"}},
      {SYS_execve, {"base_syscalls.custom_set"}}};
  EXPECT_EQ(FormatSyscallSet(set),
            "close  state\n"
            "openat  rule \"A\", rule \"B\", rule \"C\", state, and 2 more rules\n"
            "execve  base_syscalls.custom_set\n");
  const std::vector<uint8_t> table = SyscallTable(set, 512);
  EXPECT_EQ(table.size(), 512u);
  EXPECT_EQ(table[SYS_openat], 1);
  EXPECT_EQ(table[SYS_getpid], 0);
}

}  // namespace
}  // namespace kestrel::agent
