// The agent as an embedder drives it (agent.h, which kestrel.h wraps): rules
// given as text, the live probe, alerts through the callback with their
// fields and tags, a rule enabled and disabled live with the syscall set
// following, a reload that fails keeping the rules, and the stats. One
// agent (one probe) for the whole suite; the calls come from the test's
// thread while the reader runs, which the TSan binary checks too.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "agent/agent.h"
#include "engine/alerts/alert.h"

namespace kestrel::agent {
namespace {

constexpr char kAgentTestRules[] = R"yaml(
- rule: Agent test open
  desc: a file under the test's prefix was opened
  condition: evt.type in (open, openat, openat2) and fd.name startswith /tmp/kestrel-agent-test-
  output: "agent test open (file=%fd.name proc=%proc.name)"
  priority: WARNING
  tags: [agent_test, files]
- rule: Agent test chmod
  desc: a file under the test's prefix changed mode
  condition: evt.type in (chmod, fchmodat) and evt.arg.filename startswith /tmp/kestrel-agent-test-
  output: "agent test chmod (file=%evt.arg.filename)"
  priority: NOTICE
  enabled: false
)yaml";

struct SeenAlert {
  std::string rule;
  engine::rules::Priority priority;
  std::string output;
  std::vector<std::string> tags;
  std::vector<std::pair<std::string, std::string>> fields;
};

// The probe leaves the agent's own process out, so a command run by a
// child makes the call: its execve tells the agent who it is.
void RunAgentTestCommand(const std::vector<std::string>& argv) {
  const pid_t pid = fork();
  if (pid == 0) {
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    _exit(127);
  }
  ASSERT_GT(pid, 0);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << argv[0];
}

class AgentTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    AgentOptions options;
    options.rules_texts = {{"agent_test.yaml", kAgentTestRules}};
    options.container_runtimes = false;
    options.config_outputs = false;
    options.on_alert = [](const engine::alerts::Alert& a) {
      SeenAlert seen{a.rule, a.priority, a.output, a.tags, {}};
      for (const auto& f : a.output_fields) seen.fields.emplace_back(f.name, f.value.value_or(""));
      const std::lock_guard lock(mu_);
      alerts_.push_back(std::move(seen));
      arrived_.notify_all();
    };
    absl::StatusOr<std::unique_ptr<Agent>> opened = Agent::Open(std::move(options));
    ASSERT_TRUE(opened.ok()) << opened.status();
    agent_ = *std::move(opened);
    const absl::Status started = agent_->Start();
    ASSERT_TRUE(started.ok()) << started;
  }
  static void TearDownTestSuite() {
    if (agent_) {
      EXPECT_TRUE(agent_->Stop().ok());
    }
    agent_.reset();
  }
  void SetUp() override {
    ASSERT_NE(agent_, nullptr);
    path_ = "/tmp/kestrel-agent-test-" + std::to_string(getpid());
    const std::lock_guard lock(mu_);
    alerts_.clear();
  }
  void TearDown() override { unlink(path_.c_str()); }

  // The alerts of `rule` once `n` of them arrived, within 10 s.
  static std::vector<SeenAlert> WaitFor(const std::string& rule, size_t n) {
    std::unique_lock lock(mu_);
    std::vector<SeenAlert> of_rule;
    arrived_.wait_for(lock, std::chrono::seconds(10), [&] {
      of_rule.clear();
      for (const SeenAlert& a : alerts_) {
        if (a.rule == rule) of_rule.push_back(a);
      }
      return of_rule.size() >= n;
    });
    return of_rule;
  }

  void Touch() { RunAgentTestCommand({"touch", path_}); }
  void Chmod() { RunAgentTestCommand({"chmod", "640", path_}); }

  static inline std::unique_ptr<Agent> agent_;
  static inline std::mutex mu_;
  static inline std::condition_variable arrived_;
  static inline std::vector<SeenAlert> alerts_;
  std::string path_;
};

TEST_F(AgentTest, AlertReachesTheCallbackWithFieldsAndTags) {
  Touch();
  const std::vector<SeenAlert> seen = WaitFor("Agent test open", 1);
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0].priority, engine::rules::Priority::kWarning);
  EXPECT_EQ(seen[0].output, "agent test open (file=" + path_ + " proc=touch)");
  EXPECT_EQ(seen[0].tags, (std::vector<std::string>{"agent_test", "files"}));
  EXPECT_EQ(seen[0].fields, (std::vector<std::pair<std::string, std::string>>{
                                {"fd.name", path_}, {"proc.name", "touch"}}));
  // The counters are published between batches: a moment after the callback.
  AgentStats stats = agent_->Stats();
  const auto warnings = [&] {
    return stats.alerts_by_priority[static_cast<int>(engine::rules::Priority::kWarning)];
  };
  for (int i = 0; i < 100 && warnings() == 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    stats = agent_->Stats();
  }
  EXPECT_GE(warnings(), 1u);
  EXPECT_EQ(stats.rules_loaded, 2u);
  EXPECT_EQ(stats.rules_enabled, 1u);
}

TEST_F(AgentTest, EnablingARuleLiveAddsItsSyscallsAndItFires) {
  const uint64_t before = agent_->Stats().syscalls;
  Touch();
  Chmod();  // not captured: the rule is disabled
  ASSERT_TRUE(agent_->SetRuleEnabled("Agent test chmod", true).ok());
  EXPECT_GT(agent_->Stats().syscalls, before);
  Chmod();
  const std::vector<SeenAlert> seen = WaitFor("Agent test chmod", 1);
  ASSERT_EQ(seen.size(), 1u) << "only the chmod made after the rule was enabled";
  EXPECT_EQ(seen[0].output, "agent test chmod (file=" + path_ + ")");

  ASSERT_TRUE(agent_->SetRuleEnabled("Agent test chmod", false).ok());
  EXPECT_EQ(agent_->Stats().syscalls, before);
  EXPECT_GE(agent_->Stats().reloads, 2u);
}

TEST_F(AgentTest, UnknownRuleIsNotFoundAndChangesNothing) {
  const AgentStats before = agent_->Stats();
  const absl::Status s = agent_->SetRuleEnabled("No such rule", true);
  EXPECT_TRUE(absl::IsNotFound(s)) << s;
  EXPECT_EQ(agent_->Stats().reloads, before.reloads);
}

TEST_F(AgentTest, ReloadAppliesAndTheRulesKeepFiring) {
  ASSERT_TRUE(agent_->Reload().ok());
  Touch();
  EXPECT_EQ(WaitFor("Agent test open", 1).size(), 1u);
}

TEST(AgentOpenTest, BadRulesTextIsInvalidArgumentNamingIt) {
  std::vector<std::string> logged;
  AgentOptions options;
  options.rules_texts = {{"broken.yaml", "- rule: x\n  condition: evt.type = openat\n"}};
  options.container_runtimes = false;
  options.log = [&](LogLevel, const std::string& line) { logged.push_back(line); };
  absl::StatusOr<std::unique_ptr<Agent>> opened = Agent::Open(std::move(options));
  ASSERT_FALSE(opened.ok());
  EXPECT_TRUE(absl::IsInvalidArgument(opened.status())) << opened.status();
  ASSERT_FALSE(logged.empty());
  EXPECT_EQ(logged[0].rfind("broken.yaml:1:3: error: rule 'x'", 0), 0u) << logged[0];
}

}  // namespace
}  // namespace kestrel::agent
