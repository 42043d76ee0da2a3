// The reload worker: loads run on its own thread, a request never blocks,
// the result is taken once, and a request made during a load is served by
// one more load, so the files' last state is always the one compiled.
#include "agent/rules/rules_worker.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>

#include "absl/strings/str_cat.h"
#include "engine/fields/field_registry.h"

namespace kestrel::agent {
namespace {

class RulesLoadWorkerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/kestrel-rules-worker-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
    path_ = dir_ + "/rules.yaml";
    options_.paths = {path_};
  }
  void TearDown() override {
    std::remove(path_.c_str());
    rmdir(dir_.c_str());
  }

  void Write(const std::string& rule_name) {
    std::ofstream(path_) << "- rule: " << rule_name
                         << "\n  desc: x\n  condition: evt.type = openat\n  output: x\n"
                            "  priority: WARNING\n";
  }

  // Waits for the worker to have a result, up to 10 s.
  static std::optional<RulesLoadWorker::Result> Next(RulesLoadWorker& worker) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (std::chrono::steady_clock::now() < deadline) {
      if (std::optional<RulesLoadWorker::Result> r = worker.Take()) return r;
      usleep(1000);
    }
    return std::nullopt;
  }

  std::string dir_, path_;
  RunRulesOptions options_;
  engine::fields::FieldRegistry fields_;
};

TEST_F(RulesLoadWorkerTest, NothingIsLoadedUntilAsked) {
  Write("First");
  RulesLoadWorker worker(options_, fields_);
  usleep(50'000);
  EXPECT_FALSE(worker.Busy());
  EXPECT_FALSE(worker.Take());
}

TEST_F(RulesLoadWorkerTest, AResultIsTakenOnce) {
  Write("First");
  RulesLoadWorker worker(options_, fields_);
  worker.Request();
  std::optional<RulesLoadWorker::Result> r = Next(worker);
  ASSERT_TRUE(r && r->rules.ok());
  EXPECT_EQ((*r->rules)->ruleset->rules().front().name, "First");
  EXPECT_FALSE(worker.Busy());
  EXPECT_FALSE(worker.Take());
}

TEST_F(RulesLoadWorkerTest, AFailedLoadCarriesItsDiagnostics) {
  std::ofstream(path_) << "- rule: Broken\n  desc: x\n  condition: evt.type = \n"
                          "  output: x\n  priority: WARNING\n";
  RulesLoadWorker worker(options_, fields_);
  worker.Request();
  std::optional<RulesLoadWorker::Result> r = Next(worker);
  ASSERT_TRUE(r);
  EXPECT_FALSE(r->rules.ok());
  ASSERT_FALSE(r->diags.empty());
  EXPECT_EQ(r->diags.front().file, path_);
}

TEST_F(RulesLoadWorkerTest, TheLastRequestSeesTheFilesLastState) {
  Write("First");
  RulesLoadWorker worker(options_, fields_);
  // Requests while loads run: however they interleave, the last result
  // compiled is the last file written.
  for (int i = 0; i < 20; ++i) {
    Write(absl::StrCat("Rule", i));
    worker.Request();
  }
  // A load may catch a file half written: the last one cannot.
  std::string last;
  auto take = [&] {
    std::optional<RulesLoadWorker::Result> r = worker.Take();
    if (!r) return;
    last = r->rules.ok() && !(*r->rules)->ruleset->rules().empty()
               ? (*r->rules)->ruleset->rules().front().name
               : "(half written)";
  };
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while ((worker.Busy() || last.empty()) && std::chrono::steady_clock::now() < deadline) {
    take();
    usleep(1000);
  }
  take();
  EXPECT_EQ(last, "Rule19");
}

TEST_F(RulesLoadWorkerTest, ACancelledLoadStopsBeforeCompilingAnything) {
  Write("First");
  std::atomic<bool> cancelled{true};
  RunRulesOptions options = options_;
  options.cancelled = &cancelled;
  std::vector<engine::rules::Diagnostic> diags;
  absl::StatusOr<std::unique_ptr<RunRules>> rules = LoadRunRules(options, fields_, diags);
  EXPECT_EQ(rules.status().code(), absl::StatusCode::kCancelled);
  cancelled = false;
  EXPECT_TRUE(LoadRunRules(options, fields_, diags).ok());
}

TEST_F(RulesLoadWorkerTest, StoppingWithALoadAskedForEndsPromptly) {
  Write("First");
  const auto start = std::chrono::steady_clock::now();
  {
    RulesLoadWorker worker(options_, fields_);
    worker.Request();
  }
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
}

}  // namespace
}  // namespace kestrel::agent
