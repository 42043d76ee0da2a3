// `kestrel rules describe`, `kestrel run -L / -l RULE`, `run --support`
// and `run -U` through the binary: exact text and JSON for a small rules
// file of the test's own (two lists, two macros, an exception, two rules),
// the same from run as from describe, an unknown rule's exit code, the
// support document's keys and digest, and an unbuffered live run.
#include <gtest/gtest.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "../support/json_value.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "kestrel_process.h"
#include "run_triggers.h"

namespace kestrel::e2e {
namespace {

// The description holds an escape sequence: it must reach neither the
// terminal (text) nor a JSON consumer raw.
constexpr char kDescribeRules[] = R"yaml(- list: describe_shells
  items: [bash, sh]
- list: describe_tools
  items: [describe_shells, curl]
- list: describe_spare
  items: [nothing]
- macro: describe_spawned
  condition: evt.type = execve
- macro: describe_spare_macro
  condition: proc.name in (describe_spare)
- rule: Describe shell
  desc: "a shell \e[31mstarted\e[0m"
  condition: describe_spawned and proc.name in (describe_tools)
  output: shell %proc.name (parent %proc.pname)
  priority: WARNING
  tags: [shell, test]
  exceptions:
    - name: from_cron
      fields: [proc.pname]
      comps: [=]
      values: [[cron]]
- rule: Describe opens
  desc: opens by a tool
  condition: evt.type in (open, openat) and proc.name = describe_probe
  output: "%proc.name opened %fd.name"
  priority: DEBUG
  enabled: false
)yaml";

// What describe prints for kDescribeRules, its path as @FILE@.
constexpr char kDescribeText[] = R"txt(rule: Describe shell
  description: a shell \x1b[31mstarted\x1b[0m
  priority: Warning
  tags: shell, test
  source: syscall
  enabled: true
  file: @FILE@:11
  condition: describe_spawned and proc.name in (describe_tools)
  compiled: ((evt.type = execve and proc.name in (bash, sh, curl)) and not proc.pname = \"cron\")
  output: shell %proc.name (parent %proc.pname)
  output fields: proc.name, proc.pname
  exceptions: from_cron
  macros: describe_spawned
  lists: describe_shells, describe_tools
  syscalls: execve

rule: Describe opens
  description: opens by a tool
  priority: Debug
  tags: -
  source: syscall
  enabled: false
  file: @FILE@:22
  condition: evt.type in (open, openat) and proc.name = describe_probe
  compiled: (evt.type in (open, openat) and proc.name = describe_probe)
  output: %proc.name opened %fd.name
  output fields: proc.name, fd.name
  exceptions: -
  macros: -
  lists: -
  syscalls: open, openat

macro: describe_spawned
  used: true
  file: @FILE@:7
  condition: evt.type = execve
  compiled: evt.type = execve
  macros: -
  lists: -

macro: describe_spare_macro
  used: false
  file: @FILE@:9
  condition: proc.name in (describe_spare)
  compiled: proc.name in (nothing)
  macros: -
  lists: describe_spare

list: describe_shells
  used: true
  file: @FILE@:1
  items: bash, sh
  compiled: bash, sh
  lists: -

list: describe_tools
  used: true
  file: @FILE@:3
  items: describe_shells, curl
  compiled: bash, sh, curl
  lists: describe_shells

list: describe_spare
  used: false
  file: @FILE@:5
  items: nothing
  compiled: nothing
  lists: -
)txt";

constexpr char kDescribeJson[] =
    R"json({"rules":[{"info":{"name":"Describe shell","condition":"describe_spawned and proc.name in (describe_tools)","priority":"Warning","output":"shell %proc.name (parent %proc.pname)","description":"a shell \u001b[31mstarted\u001b[0m","enabled":true,"source":"syscall","tags":["shell","test"],"capture":false,"capture_duration":0},"details":{"file":"@FILE@","line":11,"condition_compiled":"((evt.type = execve and proc.name in (bash, sh, curl)) and not proc.pname = \"cron\")","macros":["describe_spawned"],"lists":["describe_shells","describe_tools"],"exception_names":["from_cron"],"output_fields":["proc.name","proc.pname"],"events":["execve"],"all_events":false}},{"info":{"name":"Describe opens","condition":"evt.type in (open, openat) and proc.name = describe_probe","priority":"Debug","output":"%proc.name opened %fd.name","description":"opens by a tool","enabled":false,"source":"syscall","tags":[],"capture":false,"capture_duration":0},"details":{"file":"@FILE@","line":22,"condition_compiled":"(evt.type in (open, openat) and proc.name = describe_probe)","macros":[],"lists":[],"exception_names":[],"output_fields":["proc.name","fd.name"],"events":["open","openat"],"all_events":false}}],"macros":[{"info":{"name":"describe_spawned","condition":"evt.type = execve"},"details":{"used":true,"file":"@FILE@","line":7,"condition_compiled":"evt.type = execve","macros":[],"lists":[]}},{"info":{"name":"describe_spare_macro","condition":"proc.name in (describe_spare)"},"details":{"used":false,"file":"@FILE@","line":9,"condition_compiled":"proc.name in (nothing)","macros":[],"lists":["describe_spare"]}}],"lists":[{"info":{"name":"describe_shells","items":["bash","sh"]},"details":{"used":true,"file":"@FILE@","line":1,"items_compiled":["bash","sh"],"lists":[]}},{"info":{"name":"describe_tools","items":["describe_shells","curl"]},"details":{"used":true,"file":"@FILE@","line":3,"items_compiled":["bash","sh","curl"],"lists":["describe_shells"]}},{"info":{"name":"describe_spare","items":["nothing"]},"details":{"used":false,"file":"@FILE@","line":5,"items_compiled":["nothing"],"lists":[]}}]}
)json";

class RulesDescribeTest : public ::testing::Test {
 protected:
  void SetUp() override { WriteWhole(rules_, kDescribeRules); }
  std::string Expected(const char* text) const {
    return absl::StrReplaceAll(text, {{"@FILE@", rules_}});
  }
  RunTempDir dir_;
  const std::string rules_ = dir_.File("describe.yaml");
};

TEST_F(RulesDescribeTest, TextShowsEveryRuleMacroAndList) {
  const CliResult r = RunKestrel({"rules", "describe", "-r", rules_});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, Expected(kDescribeText));
  // The diagnostics go to stderr, never into the description.
  EXPECT_EQ(r.err, rules_ +
                       ":9:3: warning: macro 'describe_spare_macro': unused: no rule or "
                       "macro names it\n");
}

TEST_F(RulesDescribeTest, JsonIsOneDocumentWithFalcosShape) {
  const CliResult r = RunKestrel({"rules", "describe", "-r", rules_, "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, Expected(kDescribeJson));
  const std::optional<testing::JsonValue> doc = testing::JsonValue::Parse(r.out);
  ASSERT_TRUE(doc.has_value());
  EXPECT_EQ(doc->Keys(), (std::vector<std::string>{"rules", "macros", "lists"}));
  // The escape sequence is decoded back exactly.
  EXPECT_EQ(doc->Find("rules")->items[0].Find("info")->Find("description")->text,
            "a shell \x1b[31mstarted\x1b[0m");
  // -o json_output=true says the same as --json.
  const CliResult by_config =
      RunKestrel({"rules", "describe", "-r", rules_, "-o", "json_output=true"});
  EXPECT_EQ(by_config.out, r.out);
}

TEST_F(RulesDescribeTest, OneRuleAndRunsListFlagsPrintTheSame) {
  const CliResult one = RunKestrel({"rules", "describe", "Describe opens", "-r", rules_});
  ASSERT_EQ(one.exit_code, 0) << one.err;
  const std::string text = Expected(kDescribeText);
  EXPECT_EQ(one.out, text.substr(text.find("rule: Describe opens"),
                                 text.find("\nmacro: ") - text.find("rule: Describe opens")));
  const CliResult l = RunKestrel({"run", "-r", rules_, "-l", "Describe opens"});
  EXPECT_EQ(l.exit_code, 0) << l.err;
  EXPECT_EQ(l.out, one.out);
  const CliResult all = RunKestrel({"run", "-r", rules_, "-L"});
  EXPECT_EQ(all.exit_code, 0) << all.err;
  EXPECT_EQ(all.out, text);
  const CliResult all_json = RunKestrel({"run", "-r", rules_, "-L", "-o", "json_output=true"});
  EXPECT_EQ(all_json.exit_code, 0) << all_json.err;
  EXPECT_EQ(all_json.out, Expected(kDescribeJson));
  const CliResult one_json =
      RunKestrel({"rules", "describe", "-r", rules_, "--json", "Describe shell"});
  const std::optional<testing::JsonValue> doc = testing::JsonValue::Parse(one_json.out);
  ASSERT_TRUE(doc.has_value()) << one_json.out;
  EXPECT_EQ(doc->Keys(), std::vector<std::string>{"rules"});
  ASSERT_EQ(doc->Find("rules")->items.size(), 1u);
}

TEST_F(RulesDescribeTest, AnUnknownRuleIsOneLineAndExitTwo) {
  const CliResult r = RunKestrel({"rules", "describe", "-r", rules_, "No \x1b[2Jsuch rule"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_TRUE(
      r.err.ends_with("kestrel rules describe: no rule is named \"No \\x1b[2Jsuch rule\"\n"))
      << r.err;
  const CliResult l = RunKestrel({"run", "-r", rules_, "-l", "nope"});
  EXPECT_EQ(l.exit_code, 2);
  EXPECT_EQ(l.out, "");
  EXPECT_TRUE(l.err.ends_with("kestrel run: no rule is named \"nope\"\n")) << l.err;
}

std::string DescribeSha256Sum(const std::string& path) {
  FILE* p = popen(("sha256sum " + path).c_str(), "r");
  char buf[65] = {};
  const size_t n = p ? fread(buf, 1, 64, p) : 0;
  if (p) pclose(p);
  return std::string(buf, n);
}

TEST_F(RulesDescribeTest, SupportIsOneJsonDocumentWithTheRulesDigest) {
  const std::string config_file = dir_.File("kestrel.yaml");
  WriteWhole(config_file, "buffered_outputs: true\n");
  const CliResult r = RunKestrel(
      {"run", "-r", rules_, "--support", "-c", config_file, "-U", "-o", "priority=WARNING"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::optional<testing::JsonValue> doc = testing::JsonValue::Parse(r.out);
  ASSERT_TRUE(doc.has_value()) << r.out;
  EXPECT_EQ(doc->Keys(), (std::vector<std::string>{"version", "engine_info", "system_info",
                                                   "config", "rules_files"}));
  EXPECT_EQ(doc->Find("engine_info")->Keys(),
            (std::vector<std::string>{"engine_version", "libbpf_version", "libpman_abi"}));
  EXPECT_EQ(doc->Find("engine_info")->Find("engine_version")->text, "0.57.0");
  EXPECT_EQ(doc->Find("system_info")->Keys(),
            (std::vector<std::string>{"sysname", "nodename", "release", "version", "machine"}));
  EXPECT_EQ(doc->Find("system_info")->Find("sysname")->text, "Linux");
  const testing::JsonValue& config = *doc->Find("config");
  // -U wins over the config's buffered_outputs: true; -o is applied.
  EXPECT_FALSE(config.Find("buffered_outputs")->boolean);
  EXPECT_EQ(config.Find("priority")->text, "warning");
  EXPECT_EQ(config.Find("rules_files")->items.at(0).text, rules_);
  EXPECT_NE(config.Find("load_shedding.keep_priority"), nullptr);
  const testing::JsonValue& files = *doc->Find("rules_files");
  ASSERT_EQ(files.items.size(), 1u);
  EXPECT_EQ(files.items[0].Find("name")->text, rules_);
  EXPECT_EQ(files.items[0].Find("size")->text, std::to_string(std::string(kDescribeRules).size()));
  EXPECT_EQ(files.items[0].Find("sha256")->text, DescribeSha256Sum(rules_));
}

TEST_F(RulesDescribeTest, HelpListsTheNewVerbAndFlags) {
  const CliResult rules = RunKestrel({"rules", "--help"});
  EXPECT_TRUE(Contains(rules.out, "describe")) << rules.out;
  const CliResult run = RunKestrel({"run", "--help"});
  for (const char* flag :
       {"-L", "--list-rules", "-l", "--describe-rule", "-U", "--unbuffered", "--support"}) {
    EXPECT_TRUE(Contains(run.out, flag)) << flag;
  }
  const CliResult completion = RunKestrel({"completion", "bash"});
  for (const char* word : {"describe", "--unbuffered", "--support", "--list-rules"}) {
    EXPECT_TRUE(Contains(completion.out, word)) << word;
  }
}

// Falco's -U: with buffered_outputs=true from -o, -U still writes each
// alert at once: the first one reaches the pipe while the run goes on.
TEST_F(RulesDescribeTest, UnbufferedLiveRunWritesEachAlertAtOnce) {
  const std::string rules = dir_.File("open.yaml");
  WriteWhole(rules, OpenRule(dir_.path()));
  KestrelProcess run({"run", "-r", rules, "-o", "buffered_outputs=true", "-U"});
  ASSERT_TRUE(WaitUntilAlerting(run, dir_));
  run.Signal(SIGINT);
  const CliResult r = run.Wait();
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

}  // namespace
}  // namespace kestrel::e2e
