// Which conditions can match a failed call. Unit cases for the analysis,
// then the differential check behind the probe dropping failed calls: the
// committed capture fixtures (failed calls among them) through rules that
// compare results every which way, and no rule the analysis calls
// success-only ever matches a failed call.
#include "engine/rules/result_analysis.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/fields/field_registry.h"
#include "engine/filter/parser.h"
#include "engine/rules/ruleset.h"
#include "fixture_replay.h"

namespace kestrel::engine::rules {
namespace {

bool OnlySuccess(const std::string& condition) {
  absl::StatusOr<filter::ExprPtr> e = filter::ParseCondition(condition);
  EXPECT_TRUE(e.ok()) << e.status();
  return e.ok() && MatchesOnlySuccess(**e);
}

TEST(ResultAnalysisTest, AConjunctThatExcludesFailures) {
  EXPECT_TRUE(OnlySuccess("evt.type = openat and evt.rawres >= 0"));
  EXPECT_TRUE(OnlySuccess("evt.rawres > -1 and proc.name = sh"));
  EXPECT_TRUE(OnlySuccess("evt.res = SUCCESS"));
  EXPECT_TRUE(OnlySuccess("evt.res in (SUCCESS)"));
  EXPECT_TRUE(OnlySuccess("evt.failed = false and fd.name = /etc/shadow"));
  EXPECT_TRUE(OnlySuccess("evt.failed != true"));
  EXPECT_TRUE(OnlySuccess("not evt.failed = true"));
  EXPECT_TRUE(OnlySuccess("not evt.rawres < 0"));
  EXPECT_TRUE(OnlySuccess("evt.rawres = 0 or evt.res = SUCCESS"));
  EXPECT_TRUE(OnlySuccess("not (evt.failed = true or proc.name = sh)"));
  EXPECT_TRUE(OnlySuccess("evt.rawres in (0, 1, 2)"));
}

TEST(ResultAnalysisTest, AnythingElseMayMatchAFailure) {
  EXPECT_FALSE(OnlySuccess("evt.type = connect"));
  EXPECT_FALSE(OnlySuccess("evt.type = connect and container.id != host"));
  EXPECT_FALSE(OnlySuccess("evt.rawres >= 0 or proc.name = sh"));
  EXPECT_FALSE(OnlySuccess("evt.rawres >= -2"));
  EXPECT_FALSE(OnlySuccess("evt.rawres != 0"));
  EXPECT_FALSE(OnlySuccess("evt.res != SUCCESS"));
  EXPECT_FALSE(OnlySuccess("evt.res = ENOENT"));
  EXPECT_FALSE(OnlySuccess("evt.failed = true"));
  EXPECT_FALSE(OnlySuccess("not evt.rawres >= 0"));
  EXPECT_FALSE(OnlySuccess("not (evt.rawres >= 0 and proc.name = sh)"));
  EXPECT_FALSE(OnlySuccess("evt.rawres in (0, -2)"));
  EXPECT_FALSE(OnlySuccess("tolower(evt.res) = success"));
  EXPECT_FALSE(OnlySuccess("evt.rawres >= zero"));
}

// One comparison of a result field, true or false on failure or depending.
std::string ResultPredicate(std::mt19937& rng) {
  static const char* const kPredicates[] = {
      "evt.rawres >= 0",      "evt.rawres > -1",   "evt.rawres < 0",
      "evt.rawres = 0",       "evt.rawres != 0",   "evt.rawres >= -2",
      "evt.rawres in (0, 3)", "evt.res = SUCCESS", "evt.res != SUCCESS",
      "evt.res = ENOENT",     "evt.failed = true", "evt.failed = false",
      "evt.failed != true",   "evt.rawres <= -1",  "evt.res in (SUCCESS, ENOENT)"};
  return kPredicates[rng() % std::size(kPredicates)];
}

std::string OtherPredicate(std::mt19937& rng) {
  static const char* const kPredicates[] = {"evt.type in (openat, open, connect, execve, read)",
                                            "proc.name exists", "fd.name startswith /",
                                            "evt.type = openat", "proc.name != nobody-here"};
  return kPredicates[rng() % std::size(kPredicates)];
}

std::string RandomResultCondition(std::mt19937& rng) {
  std::string c = rng() % 2 ? ResultPredicate(rng) : OtherPredicate(rng);
  for (size_t n = rng() % 3; n > 0; --n) {
    const std::string p = rng() % 2 ? ResultPredicate(rng) : OtherPredicate(rng);
    switch (rng() % 4) {
      case 0:
        c = absl::StrCat("(", c, " or ", p, ")");
        break;
      case 1:
        c = absl::StrCat("not (", c, ")");
        break;
      default:
        c = absl::StrCat("(", c, " and ", p, ")");
        break;
    }
  }
  return c;
}

// Every alert on a failed call comes from a rule that can match one.
void ExpectNoSuccessOnlyRuleMatchesAFailure(Ruleset& set, const fields::FieldRegistry& registry,
                                            size_t* failed_calls, size_t* failed_alerts) {
  filter::FieldRef failed_ref;
  failed_ref.name = "evt.rawres";
  absl::StatusOr<filter::FieldSpec> rawres = registry.Resolve(failed_ref);
  ASSERT_TRUE(rawres.ok());
  fields::FieldExtractor extractor(registry, nullptr);
  for (const std::string& file : Fixtures()) {
    Replay(file, extractor, [&](uint64_t num, uint32_t nr) {
      std::string text;
      const bool failed = extractor.ReadText(*rawres, text) && text.starts_with('-');
      *failed_calls += failed;
      set.Evaluate(nr, extractor, false, [&](const Rule& r) {
        if (!failed) return;
        ++*failed_alerts;
        EXPECT_TRUE(r.matches_failed)
            << file << " record " << num << ": '" << r.name << "' (" << r.condition_text
            << ") was called success-only and matched a failed call";
      });
    });
  }
}

TEST(ResultAnalysisTest, NoSuccessOnlyRuleMatchesAFailedCallOfTheFixtures) {
  ASSERT_FALSE(Fixtures().empty());
  fields::FieldRegistry registry;
  std::mt19937 rng(7);
  std::string yaml;
  size_t success_only = 0;
  for (int i = 0; i < 600; ++i) {
    const std::string condition = RandomResultCondition(rng);
    success_only += OnlySuccess(condition);
    absl::StrAppend(&yaml, "- rule: results ", i, "\n  desc: d\n  condition: ", condition,
                    "\n  output: o\n  priority: WARNING\n");
  }
  std::vector<Diagnostic> diags;
  absl::StatusOr<std::unique_ptr<Ruleset>> set =
      Ruleset::LoadText(yaml, "results.yaml", {}, registry, &diags);
  ASSERT_TRUE(set.ok()) << set.status();
  size_t failed_calls = 0, failed_alerts = 0;
  ExpectNoSuccessOnlyRuleMatchesAFailure(**set, registry, &failed_calls, &failed_alerts);
  EXPECT_GT(success_only, 100u) << "the generated rules should often be success-only";
  EXPECT_GT(failed_calls, 0u) << "the fixtures should hold failed calls";
  EXPECT_GT(failed_alerts, 0u) << "failed calls should match the rules that can match them";

  // Falco's stable rules, when there.
  if (const char* dir = std::getenv("KESTREL_FALCO_RULES_DIR")) {
    fields::FieldRegistry falco_registry;
    absl::StatusOr<std::unique_ptr<Ruleset>> falco =
        Ruleset::Load({std::string(dir) + "/falco_rules.yaml"}, {}, falco_registry, &diags);
    ASSERT_TRUE(falco.ok()) << falco.status();
    ExpectNoSuccessOnlyRuleMatchesAFailure(**falco, falco_registry, &failed_calls, &failed_alerts);
  }
}

}  // namespace
}  // namespace kestrel::engine::rules
