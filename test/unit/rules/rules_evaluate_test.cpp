// Evaluating a ruleset per event: rules indexed by syscall, first/all
// matching, enable/disable by name and tag, the priority threshold.
#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "engine/decode/syscall_names.h"
#include "engine/rules/ruleset.h"
#include "gtest/gtest.h"
#include "test_fields.h"

namespace kestrel::engine::rules {
namespace {

using test::TestFields;

constexpr char kRules[] = R"(
- macro: spawned
  condition: evt.type = execve
- rule: open etc
  desc: d
  condition: evt.type in (open, openat) and fd.name startswith /etc/
  output: o
  priority: warning
  tags: [files]
- rule: shell
  desc: d
  condition: spawned and proc.name = bash
  output: o
  priority: notice
  tags: [process, shells]
- rule: any bash
  desc: d
  condition: proc.name = bash
  output: o
  priority: debug
  tags: [process]
  warn_evttypes: false
- rule: off
  desc: d
  condition: spawned
  output: o
  priority: critical
  enabled: false
)";

class RulesEvaluateTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto loaded = Ruleset::LoadText(kRules, "r.yaml", {}, fields_, &diags_);
    ASSERT_TRUE(loaded.ok()) << loaded.status();
    set_ = *std::move(loaded);
  }

  std::vector<std::string> Run(const std::string& type, std::map<std::string, std::string> values,
                               bool first_only = false) {
    reader_.values = std::move(values);
    reader_.values["evt.type"] = type;
    std::vector<std::string> hits;
    set_->Evaluate(*SyscallId(type), reader_, first_only,
                   [&](const Rule& r) { hits.push_back(r.name); });
    return hits;
  }

  TestFields fields_;
  TestFields reader_;
  std::vector<Diagnostic> diags_;
  std::unique_ptr<Ruleset> set_;
};

using Names = std::vector<std::string>;

TEST_F(RulesEvaluateTest, MatchesInLoadOrderFirstOrAll) {
  EXPECT_EQ(Run("execve", {{"proc.name", "bash"}}), (Names{"shell", "any bash"}));
  EXPECT_EQ(Run("execve", {{"proc.name", "bash"}}, true), (Names{"shell"}));
  EXPECT_EQ(Run("openat", {{"proc.name", "bash"}, {"fd.name", "/etc/passwd"}}),
            (Names{"open etc", "any bash"}));
  EXPECT_EQ(Run("openat", {{"proc.name", "cat"}, {"fd.name", "/etc/passwd"}}), (Names{"open etc"}));
  EXPECT_EQ(Run("openat", {{"proc.name", "cat"}, {"fd.name", "/tmp/x"}}), (Names{}));
}

TEST_F(RulesEvaluateTest, AnEventMeetsOnlyTheRulesOfItsSyscall) {
  set_->SetEnabledByName("any bash", false);
  // No enabled rule can match getpid: nothing is read.
  reader_.reads = 0;
  EXPECT_EQ(Run("getpid", {{"proc.name", "bash"}}), (Names{}));
  EXPECT_EQ(reader_.reads, 0u);
  // An execve meets only `shell`: fd.name is never read.
  EXPECT_EQ(Run("execve", {{"proc.name", "bash"}, {"fd.name", "/etc/x"}}), (Names{"shell"}));
  EXPECT_EQ(reader_.reads, 2u);  // evt.type, proc.name
}

TEST_F(RulesEvaluateTest, EnableAndDisableByNameAndTag) {
  set_->SetEnabledByName("off", true);
  EXPECT_EQ(Run("execve", {{"proc.name", "sh"}}), (Names{"off"}));
  set_->SetEnabledByTag("process", false);
  EXPECT_EQ(Run("execve", {{"proc.name", "bash"}}), (Names{"off"}));
  set_->SetEnabledByTag("shells", true);
  EXPECT_EQ(Run("execve", {{"proc.name", "bash"}}), (Names{"shell", "off"}));
}

TEST_F(RulesEvaluateTest, PriorityThreshold) {
  set_->SetMinimumPriority(Priority::kNotice);
  EXPECT_EQ(Run("execve", {{"proc.name", "bash"}}), (Names{"shell"}));
  set_->SetMinimumPriority(Priority::kWarning);
  EXPECT_EQ(Run("execve", {{"proc.name", "bash"}}), (Names{}));
  EXPECT_EQ(Run("open", {{"fd.name", "/etc/x"}}), (Names{"open etc"}));
}

TEST_F(RulesEvaluateTest, SyscallNeedsOfTheEnabledRules) {
  SyscallNeeds needs = set_->Syscalls();
  EXPECT_TRUE(needs.any);
  EXPECT_EQ(needs.unconstrained_rules, (Names{"any bash"}));
  set_->SetEnabledByName("any bash", false);
  needs = set_->Syscalls();
  EXPECT_FALSE(needs.any);
  std::vector<uint32_t> want = {*SyscallId("open"), *SyscallId("openat"), *SyscallId("execve")};
  std::sort(want.begin(), want.end());
  EXPECT_EQ(needs.syscalls, want);
  set_->SetMinimumPriority(Priority::kWarning);
  EXPECT_EQ(set_->Syscalls().syscalls.size(), 2u);
}

}  // namespace
}  // namespace kestrel::engine::rules
