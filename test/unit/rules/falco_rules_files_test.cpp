// Falco's public rules files load unmodified, with no rule skipped for a
// field Kestrel lacks. The files are not part of Kestrel: the test reads
// them from the folder KESTREL_FALCO_RULES_DIR names (falco_rules.yaml,
// falco-incubating_rules.yaml, falco-sandbox_rules.yaml from
// falcosecurity/rules), and passes without checking when it is unset.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "engine/fields/field_registry.h"
#include "engine/rules/ruleset.h"
#include "gtest/gtest.h"

namespace kestrel::engine::rules {
namespace {

class FalcoRulesFilesTest : public ::testing::TestWithParam<const char*> {};

TEST_P(FalcoRulesFilesTest, LoadsWithNoRuleSkipped) {
  const char* dir = std::getenv("KESTREL_FALCO_RULES_DIR");
  if (dir == nullptr) {
    std::printf("KESTREL_FALCO_RULES_DIR is not set: Falco's rules files not checked\n");
    return;
  }
  // The incubating and sandbox files use the stable file's macros and lists.
  std::vector<std::string> files = {std::string(dir) + "/falco_rules.yaml"};
  if (std::string(GetParam()) != "falco_rules.yaml") {
    files.push_back(std::string(dir) + "/" + GetParam());
  }
  ASSERT_TRUE(std::filesystem::exists(files.back())) << files.back();
  // As on a host where a container runtime answers, where Falco runs
  // these files: strict, so any warning Falco would not give fails.
  fields::FieldRegistry fields;
  fields.SetFilled(fields::FieldSource::kContainerRuntime);
  std::vector<Diagnostic> diags;
  auto set = Ruleset::Load(files, {.strict = true}, fields, &diags);
  for (const Diagnostic& d : diags) std::printf("%s\n", d.ToString().c_str());
  ASSERT_TRUE(set.ok()) << set.status();
  EXPECT_EQ((*set)->skipped(), 0u);
  size_t enabled = 0;
  for (const Rule& r : (*set)->rules()) enabled += r.enabled;
  std::printf("%s: %zu rules loaded (%zu enabled), %zu skipped\n", GetParam(),
              (*set)->rules().size(), enabled, (*set)->skipped());
}

INSTANTIATE_TEST_SUITE_P(Files, FalcoRulesFilesTest,
                         ::testing::Values("falco_rules.yaml", "falco-incubating_rules.yaml",
                                           "falco-sandbox_rules.yaml"));

}  // namespace
}  // namespace kestrel::engine::rules
