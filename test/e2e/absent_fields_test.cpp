// Falco's fields Kestrel leaves out, through the binary: `kestrel fields
// --absent` lists each with its reason, none of them is a field, the
// design doc's table names the same ones, and a rule naming one is told
// why when it loads.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "../support/strict_json.h"
#include "kestrel_process.h"
#include "run_triggers.h"

namespace kestrel::e2e {
namespace {

// The names of `{"name":"..."` objects in a listing.
std::set<std::string> NamesIn(const std::string& json) {
  std::set<std::string> names;
  constexpr std::string_view kKey = "{\"name\":\"";
  for (size_t at = json.find(kKey); at != std::string::npos; at = json.find(kKey, at + 1)) {
    const size_t begin = at + kKey.size();
    names.insert(json.substr(begin, json.find('"', begin) - begin));
  }
  return names;
}

// The `code` names in the first column of docs/design/fields.md's table of
// libsinsp fields Kestrel does not have.
std::set<std::string> NamesInDesignDoc() {
  std::ifstream in(std::string(KESTREL_SOURCE_DIR) + "/docs/design/fields.md");
  std::string line;
  bool inside = false;
  std::set<std::string> names;
  while (std::getline(in, line)) {
    if (line.starts_with("## ")) inside = line.find("does not have") != std::string::npos;
    if (!inside || !line.starts_with("| `")) continue;
    const std::string first = line.substr(2, line.find(" |", 2) - 2);
    for (size_t open = first.find('`'); open != std::string::npos;
         open = first.find('`', first.find('`', open + 1) + 1)) {
      const size_t close = first.find('`', open + 1);
      names.insert(first.substr(open + 1, close - open - 1));
    }
  }
  return names;
}

TEST(AbsentFieldsTest, ListedWithWhyNoneIsAFieldAndTheDesignDocAgrees) {
  const CliResult absent = RunKestrel({"fields", "--absent", "--json"});
  ASSERT_EQ(absent.exit_code, 0) << absent.err;
  EXPECT_EQ(testing::StrictJson::Check(absent.out), "") << absent.out.substr(0, 300);
  EXPECT_TRUE(absent.out.find("{\"name\":\"evt.latency\",\"why\":\"deprecated in libsinsp, which "
                              "gives 0 for every event") != std::string::npos)
      << absent.out;
  const std::set<std::string> left_out = NamesIn(absent.out);
  ASSERT_GE(left_out.size(), 10u);
  const CliResult fields = RunKestrel({"fields", "--json"});
  ASSERT_EQ(fields.exit_code, 0) << fields.err;
  const std::set<std::string> offered = NamesIn(fields.out);
  for (const std::string& name : left_out) EXPECT_EQ(offered.count(name), 0u) << name;
  EXPECT_EQ(NamesInDesignDoc(), left_out);

  const CliResult text = RunKestrel({"fields", "--absent"});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_TRUE(text.out.find("\nthread.exectime ") != std::string::npos) << text.out;
}

TEST(AbsentFieldsTest, ARuleNamingOneIsToldWhyAtLoad) {
  RunTempDir dir;
  const std::string rules = dir.File("latency.yaml");
  std::ofstream(rules) << "- rule: Slow opens\n"
                          "  desc: opens that took long\n"
                          "  condition: evt.type = openat and evt.latency > 1000000\n"
                          "  output: slow %fd.name\n"
                          "  priority: INFO\n";
  const CliResult r = RunKestrel({"rules", "validate", rules});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  // rules validate reports on stdout.
  EXPECT_TRUE(r.out.find(rules + ":3:14: error: rule 'Slow opens': field 'evt.latency' is not one "
                                 "Kestrel has (evt.latency: deprecated in libsinsp, which gives 0 "
                                 "for every event") != std::string::npos)
      << r.out;
}

}  // namespace
}  // namespace kestrel::e2e
