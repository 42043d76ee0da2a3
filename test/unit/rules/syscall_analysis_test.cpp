// The syscalls a condition can match, as Falco's event-type analysis reads
// evt.type checks through and/or/not.
#include <algorithm>
#include <string>
#include <vector>

#include "engine/decode/syscall_names.h"
#include "engine/filter/parser.h"
#include "engine/rules/syscall_analysis.h"
#include "gtest/gtest.h"

namespace kestrel::engine::rules {
namespace {

SyscallSet Analyze(const std::string& condition) {
  absl::StatusOr<filter::ExprPtr> e = filter::ParseCondition(condition);
  EXPECT_TRUE(e.ok()) << e.status();
  return AnalyzeSyscalls(**e);
}

std::vector<uint32_t> Ids(std::vector<std::string> names) {
  std::vector<uint32_t> ids;
  for (const std::string& n : names) ids.push_back(*SyscallId(n));
  std::sort(ids.begin(), ids.end());
  return ids;
}

size_t KnownSyscalls() { return AllSyscalls().size(); }

TEST(SyscallAnalysisTest, EqualAndIn) {
  EXPECT_EQ(Analyze("evt.type = open").syscalls, Ids({"open"}));
  EXPECT_EQ(Analyze("evt.type in (open, openat, openat2, creat)").syscalls,
            Ids({"open", "openat", "openat2", "creat"}));
  EXPECT_EQ(Analyze("evt.type = execve and proc.name = sh").syscalls, Ids({"execve"}));
}

TEST(SyscallAnalysisTest, AndIntersectsOrUnites) {
  EXPECT_EQ(Analyze("evt.type in (open, openat) and evt.type in (openat, connect)").syscalls,
            Ids({"openat"}));
  EXPECT_EQ(Analyze("evt.type = open or evt.type = connect").syscalls, Ids({"open", "connect"}));
  EXPECT_EQ(Analyze("(evt.type = open and fd.name = x) or (evt.type = execve and proc.name = y)")
                .syscalls,
            Ids({"open", "execve"}));
}

TEST(SyscallAnalysisTest, OtherChecksDoNotConstrain) {
  const SyscallSet any = Analyze("proc.name = sh");
  EXPECT_TRUE(any.any);
  EXPECT_TRUE(any.syscalls.empty());
  // Neither does their negation: `not proc.name = sh` holds for some events
  // of every type.
  EXPECT_TRUE(Analyze("not proc.name = sh").any);
  EXPECT_TRUE(Analyze("evt.type = open or proc.name = sh").any);
  EXPECT_EQ(Analyze("evt.type = open and not proc.name = sh").syscalls, Ids({"open"}));
}

TEST(SyscallAnalysisTest, NegationTurnsTheSetAround) {
  const SyscallSet not_open = Analyze("evt.type != open");
  EXPECT_FALSE(not_open.any);
  EXPECT_EQ(not_open.syscalls.size(), KnownSyscalls() - 1);
  EXPECT_EQ(Analyze("not evt.type != open").syscalls, Ids({"open"}));
  EXPECT_EQ(Analyze("not (evt.type != open or evt.type != openat)").syscalls, Ids({}));
  EXPECT_EQ(Analyze("not (evt.type != open and evt.type != openat)").syscalls,
            Ids({"open", "openat"}));
  EXPECT_EQ(Analyze("not evt.type in (open, openat)").syscalls.size(), KnownSyscalls() - 2);
}

TEST(SyscallAnalysisTest, DirectionAndNamesThatAreNotSyscalls) {
  // Kestrel's events are exits: `evt.dir = >` never holds.
  EXPECT_EQ(Analyze("evt.type = open and evt.dir = >").syscalls, Ids({}));
  EXPECT_EQ(Analyze("evt.type = open and evt.dir = <").syscalls, Ids({"open"}));
  EXPECT_EQ(Analyze("evt.type in (procexit, connect)").syscalls, Ids({"connect"}));
  EXPECT_TRUE(Analyze("evt.type contains open").any);
}

}  // namespace
}  // namespace kestrel::engine::rules
