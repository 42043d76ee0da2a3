// The rule index against rule-by-rule evaluation: the same records (the
// committed capture fixtures) through the same ruleset evaluated both
// ways give the same alerts, rule for rule, in the same order, on the same
// events. Rule sets: Kestrel's default rules, rules generated from the
// fixtures' own field values (so that many match), and Falco's stable
// rules when KESTREL_FALCO_RULES_DIR names their folder.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/capture_file/capture_reader.h"
#include "engine/decode/event_decoder.h"
#include "engine/decode/generic_syscall.h"
#include "engine/decode/record_view.h"
#include "engine/decode/syscall_names.h"
#include "engine/fields/event_context.h"
#include "engine/fields/field_extractor.h"
#include "engine/fields/field_registry.h"
#include "engine/rules/ruleset.h"
#include "engine/state/thread_table.h"
#include "fixture_replay.h"
#include "shared/event_types.h"

namespace kestrel::engine::rules {
namespace {

constexpr char kDefaultRules[] = KESTREL_SOURCE_DIR "/rules/kestrel_rules.yaml";

// String fields the generated rules compare, and whose values they draw.
constexpr const char* kStringFields[] = {"evt.type",   "proc.name",    "proc.exe",
                                         "fd.name",    "fd.directory", "fd.filename",
                                         "proc.pname", "user.name",    "proc.cmdline"};

struct Alert {
  uint64_t record = 0;
  std::string rule;
  bool operator==(const Alert&) const = default;
};

std::string Describe(const std::vector<Alert>& alerts, size_t from) {
  std::string out;
  for (size_t i = from; i < alerts.size() && i < from + 5; ++i) {
    absl::StrAppend(&out, "  record ", alerts[i].record, ": ", alerts[i].rule, "\n");
  }
  return out;
}

// Every alert of `set` on `file`, evaluated through the index or rule by rule.
std::vector<Alert> Alerts(Ruleset& set, const fields::FieldRegistry& registry,
                          const std::string& file, bool rule_by_rule, bool first_only) {
  set.SetRuleByRule(rule_by_rule);
  fields::FieldExtractor extractor(registry, nullptr);
  std::vector<Alert> alerts;
  Replay(file, extractor, [&](uint64_t num, uint32_t nr) {
    set.Evaluate(nr, extractor, first_only, [&](const Rule& r) {
      alerts.push_back({num, r.name});
    });
  });
  return alerts;
}

// Both ways on every fixture, first and all; returns the alerts counted.
size_t ExpectSameAlerts(Ruleset& set, const fields::FieldRegistry& registry) {
  size_t total = 0;
  for (const std::string& file : Fixtures()) {
    for (const bool first_only : {false, true}) {
      SCOPED_TRACE(absl::StrCat(file, first_only ? " (first)" : " (all)"));
      const std::vector<Alert> plain = Alerts(set, registry, file, true, first_only);
      const std::vector<Alert> indexed = Alerts(set, registry, file, false, first_only);
      size_t diverge = 0;
      while (diverge < plain.size() && diverge < indexed.size() &&
             plain[diverge] == indexed[diverge]) {
        ++diverge;
      }
      EXPECT_EQ(plain.size(), indexed.size());
      EXPECT_EQ(diverge, std::min(plain.size(), indexed.size()))
          << "rule by rule from there:\n"
          << Describe(plain, diverge) << "indexed:\n"
          << Describe(indexed, diverge);
      total += plain.size();
    }
  }
  return total;
}

std::unique_ptr<Ruleset> LoadOrDie(const std::vector<std::string>& paths,
                                   const fields::FieldRegistry& registry) {
  std::vector<Diagnostic> diags;
  auto set = Ruleset::Load(paths, {}, registry, &diags);
  for (const Diagnostic& d : diags) {
    if (d.severity == Diagnostic::Severity::kError) ADD_FAILURE() << d.ToString();
  }
  if (!set.ok()) {
    ADD_FAILURE() << set.status();
    return nullptr;
  }
  return *std::move(set);
}

TEST(RuleIndexDifferentialTest, DefaultRulesAlertAlike) {
  ASSERT_FALSE(Fixtures().empty());
  fields::FieldRegistry registry;
  std::unique_ptr<Ruleset> set = LoadOrDie({kDefaultRules}, registry);
  ASSERT_NE(set, nullptr);
  ExpectSameAlerts(*set, registry);
}

// A value fit for a rule's literal: no quotes, blanks, or list syntax.
bool Plain(const std::string& v) {
  return !v.empty() && v.size() < 80 && v.find_first_of("'\"() ,\t\n\\=<>!") == std::string::npos;
}

// Each string field's values in the fixtures, in the order first seen.
std::vector<std::vector<std::string>> FixtureValues(const fields::FieldRegistry& registry) {
  std::vector<filter::FieldSpec> specs;
  for (const char* name : kStringFields) {
    filter::FieldRef ref;
    ref.name = name;
    absl::StatusOr<filter::FieldSpec> spec = registry.Resolve(ref);
    EXPECT_TRUE(spec.ok()) << name;
    specs.push_back(spec.ok() ? *spec : filter::FieldSpec{});
  }
  std::vector<std::vector<std::string>> values(specs.size());
  std::vector<std::set<std::string>> seen(specs.size());
  fields::FieldExtractor extractor(registry, nullptr);
  for (const std::string& file : Fixtures()) {
    Replay(file, extractor, [&](uint64_t, uint32_t) {
      std::string text;
      for (size_t f = 0; f < specs.size(); ++f) {
        if (!extractor.ReadText(specs[f], text) || !Plain(text)) continue;
        if (seen[f].insert(text).second) values[f].push_back(text);
      }
    });
  }
  return values;
}

// One random comparison on a field the fixtures have values of.
std::string RandomPredicate(std::mt19937& rng,
                            const std::vector<std::vector<std::string>>& values) {
  std::vector<size_t> fields;
  for (size_t f = 0; f < values.size(); ++f) {
    if (!values[f].empty()) fields.push_back(f);
  }
  const size_t f = fields[rng() % fields.size()];
  const std::string name = kStringFields[f];
  auto pick = [&] { return values[f][rng() % values[f].size()]; };
  const std::string v = pick();
  const size_t cut = 1 + rng() % v.size();
  switch (rng() % 11) {
    case 0:
    case 1:
      return absl::StrCat(name, " = ", v);
    case 2:
      return absl::StrCat(name, " != ", v);
    case 3:
    case 4: {
      std::vector<std::string> items = {v};
      for (size_t n = rng() % 4; n > 0; --n) items.push_back(pick());
      if (rng() % 3 == 0) items.push_back("gen_absent_value");
      return absl::StrCat(name, " in (", absl::StrJoin(items, ", "), ")");
    }
    case 5:
      return absl::StrCat(name, " startswith ", v.substr(0, cut));
    case 6:
      return absl::StrCat(name, " endswith ", v.substr(v.size() - cut));
    case 7:
      return absl::StrCat(name, " contains ", v.substr(v.size() / 3, cut));
    case 8:
    case 9: {
      // A glob with a literal start, a literal end, or neither.
      if (v.find_first_of("\"\\*?[]") != std::string::npos) return absl::StrCat(name, " exists");
      const size_t at = rng() % (v.size() + 1);
      const std::string head = v.substr(0, at), tail = v.substr(std::min(v.size(), at + cut));
      switch (rng() % 3) {
        case 0:
          return absl::StrCat(name, " glob \"", head, "*", tail, "\"");
        case 1:
          return absl::StrCat(name, " glob \"*", tail, "\"");
        default:
          return absl::StrCat(name, " glob \"", head, "?*\"");
      }
    }
    default:
      return absl::StrCat(name, " exists");
  }
}

std::string RandomCondition(std::mt19937& rng,
                            const std::vector<std::vector<std::string>>& values) {
  std::vector<std::string> conjuncts;
  for (size_t n = 1 + rng() % 3; n > 0; --n) {
    std::string p = RandomPredicate(rng, values);
    switch (rng() % 8) {
      case 0:
        p = absl::StrCat("not ", p);
        break;
      case 1:
        p = absl::StrCat("(", p, " or ", RandomPredicate(rng, values), ")");
        break;
      case 2:  // a macro-like group shared by several rules
        p = absl::StrCat("(", RandomPredicate(rng, values), " and ", p, ")");
        break;
      default:
        break;
    }
    conjuncts.push_back(p);
  }
  return absl::StrJoin(conjuncts, " and ");
}

TEST(RuleIndexDifferentialTest, GeneratedRulesAlertAlike) {
  ASSERT_FALSE(Fixtures().empty());
  fields::FieldRegistry registry;
  const std::vector<std::vector<std::string>> values = FixtureValues(registry);
  ASSERT_FALSE(values[0].empty()) << "no evt.type in the fixtures";
  for (const uint32_t seed : {1u, 2u, 3u}) {
    SCOPED_TRACE(absl::StrCat("seed ", seed));
    std::mt19937 rng(seed);
    std::string yaml = "- required_engine_version: 0.57.0\n";
    for (int i = 0; i < 400; ++i) {
      absl::StrAppend(&yaml, "- rule: generated ", i,
                      "\n  desc: generated\n  condition: ", RandomCondition(rng, values),
                      "\n  output: generated ", i, "\n  priority: WARNING\n");
    }
    std::vector<Diagnostic> diags;
    auto set = Ruleset::LoadText(yaml, "generated.yaml", {}, registry, &diags);
    ASSERT_TRUE(set.ok()) << set.status();
    const size_t alerts = ExpectSameAlerts(**set, registry);
    EXPECT_GT(alerts, 100u) << "the generated rules should match often";
  }
}

TEST(RuleIndexDifferentialTest, FalcoStableRulesAlertAlike) {
  const char* dir = std::getenv("KESTREL_FALCO_RULES_DIR");
  if (dir == nullptr) {
    std::printf("KESTREL_FALCO_RULES_DIR is not set: Falco's stable rules not compared\n");
    return;
  }
  fields::FieldRegistry registry;
  std::unique_ptr<Ruleset> set = LoadOrDie({std::string(dir) + "/falco_rules.yaml"}, registry);
  ASSERT_NE(set, nullptr);
  ExpectSameAlerts(*set, registry);
}

}  // namespace
}  // namespace kestrel::engine::rules
