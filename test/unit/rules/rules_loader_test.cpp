// Rules files item by item: lists, macros, rules, append/override,
// exceptions, versions, and every error with its file, line and column.
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/substitute.h"
#include "engine/decode/syscall_names.h"
#include "engine/rules/ruleset.h"
#include "gtest/gtest.h"
#include "test_fields.h"

namespace kestrel::engine::rules {
namespace {

using test::TestFields;

struct Loaded {
  absl::StatusOr<std::unique_ptr<Ruleset>> set;
  std::vector<Diagnostic> diags;
  std::vector<std::string> lines;  // diags as text
};

Loaded Load(const std::string& yaml, LoadOptions options = {}) {
  static TestFields fields;
  Loaded out;
  out.set = Ruleset::LoadText(yaml, "r.yaml", options, fields, &out.diags);
  for (const Diagnostic& d : out.diags) out.lines.push_back(d.ToString());
  return out;
}

// The condition a rule compiled to, matched against one event.
bool Matches(Ruleset& set, const std::map<std::string, std::string>& values,
             std::string_view rule) {
  TestFields reader;
  reader.values = values;
  bool hit = false;
  set.Evaluate(*SyscallId(values.at("evt.type")), reader, false, [&](const Rule& r) {
    if (r.name == rule) hit = true;
  });
  return hit;
}

TEST(RulesLoaderTest, ReadsEveryKeyOfARule) {
  Loaded l = Load(R"(
- rule: Shell in container
  desc: a shell started
  condition: evt.type = execve and proc.name = bash
  output: shell %proc.name
  priority: WARNING
  tags: [shell, mitre_execution]
  enabled: false
  capture: true
  capture_duration: 3000
  warn_evttypes: false
  skip-if-unknown-filter: true
)");
  ASSERT_TRUE(l.set.ok()) << l.set.status();
  EXPECT_TRUE(l.lines.empty()) << l.lines[0];
  ASSERT_EQ((*l.set)->rules().size(), 1u);
  const Rule& r = (*l.set)->rules()[0];
  EXPECT_EQ(r.name, "Shell in container");
  EXPECT_EQ(r.desc, "a shell started");
  EXPECT_EQ(r.condition_text, "evt.type = execve and proc.name = bash");
  EXPECT_EQ(r.output, "shell %proc.name");
  EXPECT_EQ(r.priority, Priority::kWarning);
  EXPECT_EQ(r.tags, (std::vector<std::string>{"shell", "mitre_execution"}));
  EXPECT_FALSE(r.enabled);
  EXPECT_TRUE(r.capture);
  EXPECT_EQ(r.capture_duration_ms, 3000u);
  EXPECT_EQ(r.source, "syscall");
  EXPECT_EQ(r.file, "r.yaml");
  EXPECT_EQ(r.line, 2u);
  EXPECT_EQ(r.syscalls, std::vector<uint32_t>{*SyscallId("execve")});
  EXPECT_FALSE(r.any_syscall);
}

TEST(RulesLoaderTest, ListsInListsAndListNamesInsideParentheses) {
  Loaded l = Load(R"(
- list: shells
  items: [bash, sh]
- list: tools
  items: [shells, nc, '"shells"']
- rule: r
  desc: d
  condition: evt.type = execve and proc.name in (tools, socat)
  output: o
  priority: notice
)");
  ASSERT_TRUE(l.set.ok()) << l.set.status();
  Ruleset& set = **l.set;
  for (const char* name : {"bash", "sh", "nc", "socat", "shells"}) {
    EXPECT_TRUE(Matches(set, {{"evt.type", "execve"}, {"proc.name", name}}, "r")) << name;
  }
  EXPECT_FALSE(Matches(set, {{"evt.type", "execve"}, {"proc.name", "tools"}}, "r"));
}

TEST(RulesLoaderTest, MacrosInMacros) {
  Loaded l = Load(R"(
- rule: r
  desc: d
  condition: spawned and shell
  output: o
  priority: notice
- macro: spawned
  condition: evt.type = execve
- macro: shell
  condition: proc.name in (shells) and not trusted
- macro: trusted
  condition: proc.pname = sshd
- list: shells
  items: [bash]
)");
  ASSERT_TRUE(l.set.ok()) << l.set.status();
  Ruleset& set = **l.set;
  EXPECT_TRUE(
      Matches(set, {{"evt.type", "execve"}, {"proc.name", "bash"}, {"proc.pname", "x"}}, "r"));
  EXPECT_FALSE(
      Matches(set, {{"evt.type", "execve"}, {"proc.name", "bash"}, {"proc.pname", "sshd"}}, "r"));
  EXPECT_EQ(set.rules()[0].syscalls, std::vector<uint32_t>{*SyscallId("execve")});
}

TEST(RulesLoaderTest, MacroCycleIsAnErrorAtTheRule) {
  Loaded l = Load(R"(
- macro: a
  condition: b and proc.name = x
- macro: b
  condition: a
- rule: r
  desc: d
  condition: evt.type = open and a
  output: o
  priority: notice
)");
  ASSERT_FALSE(l.set.ok());
  ASSERT_EQ(l.lines.size(), 1u);
  EXPECT_EQ(l.lines[0], "r.yaml:8:14: error: rule 'r': macro 'a' uses itself: a -> b -> a");
}

TEST(RulesLoaderTest, ListCycleIsAnError) {
  Loaded l = Load(R"(
- list: a
  items: [b]
- list: b
  items: [a]
- rule: r
  desc: d
  condition: proc.name in (a)
  output: o
  priority: notice
)");
  ASSERT_FALSE(l.set.ok());
  ASSERT_EQ(l.lines.size(), 1u);
  EXPECT_EQ(l.lines[0], "r.yaml:8:14: error: rule 'r': list 'a' contains itself: a -> b -> a");
}

// A file of 40 macros or lists, each naming the one before twice (2^40
// copies of the first), and a rule on line 85 whose condition uses the last.
std::string Doubling(absl::string_view first, absl::string_view item, absl::string_view condition) {
  std::string yaml(first.data(), first.size());
  for (int i = 1; i <= 40; ++i) absl::StrAppend(&yaml, absl::Substitute(item, i, i - 1));
  absl::StrAppend(&yaml, "- rule: r\n  desc: d\n  condition: ", condition,
                  "\n  output: o\n  priority: notice\n");
  return yaml;
}

TEST(RulesLoaderTest, MacrosThatDoubleAreRefusedNotExpanded) {
  Loaded l = Load(Doubling("- macro: m0\n  condition: proc.name = x\n",
                           "- macro: m$0\n  condition: m$1 or m$1\n", "evt.type = open and m40"));
  ASSERT_FALSE(l.set.ok());
  ASSERT_EQ(l.lines.size(), 1u);
  EXPECT_EQ(l.lines[0],
            "r.yaml:85:14: error: rule 'r': macro 'm40' expands to more than 100000 terms "
            "(macros or lists that name each other)");
}

TEST(RulesLoaderTest, ANulByteIsReportedWhereItIs) {
  std::string yaml = "- macro: m\n  condition: evt.type = open\n- rule: r\n  desc: d x\n";
  yaml[yaml.size() - 3] = '\0';  // line 4, column 10: the space in "d x"
  Loaded l = Load(yaml);
  ASSERT_FALSE(l.set.ok());
  ASSERT_EQ(l.lines.size(), 1u);
  EXPECT_EQ(l.lines[0], "r.yaml:4:10: error: a NUL byte: a rules file is text");
}

TEST(RulesLoaderTest, ListsThatDoubleAreRefusedNotExpanded) {
  Loaded l = Load(Doubling("- list: l0\n  items: [a, b]\n", "- list: l$0\n  items: [l$1, l$1]\n",
                           "proc.name in (l40)"));
  ASSERT_FALSE(l.set.ok());
  ASSERT_EQ(l.lines.size(), 1u);
  EXPECT_EQ(l.lines[0].rfind("r.yaml:85:14: error: rule 'r': list '", 0), 0u) << l.lines[0];
  EXPECT_NE(l.lines[0].find("expands to more than 100000 terms"), std::string::npos);
}

// "---" and "..." split a file into documents; each is read, and errors
// keep the file's line numbers.
TEST(RulesLoaderTest, DocumentsKeepTheFilesLineNumbers) {
  Loaded ok = Load(R"(---
- list: a
  items: [x]
...
---
- rule: r
  desc: d
  condition: proc.name in (a)
  output: o
  priority: notice
)");
  ASSERT_TRUE(ok.set.ok()) << ok.set.status();
  EXPECT_EQ((*ok.set)->rules().size(), 1u);
  Loaded bad = Load(R"(---
- list: a
  items: [x]
---
- rule: r
  desc: d
  condition: proc.name in (b) and
  output: o
  priority: notice
)");
  ASSERT_FALSE(bad.set.ok());
  ASSERT_EQ(bad.lines.size(), 1u);
  EXPECT_EQ(bad.lines[0].rfind("r.yaml:7:", 0), 0u) << bad.lines[0];
  Loaded not_yaml = Load("---\n- list: a\n---\n- rule: [\n");
  ASSERT_EQ(not_yaml.lines.size(), 1u);
  EXPECT_EQ(not_yaml.lines[0].rfind("r.yaml:5:1: error: not valid YAML: ", 0), 0u)
      << not_yaml.lines[0];
}

TEST(RulesLoaderTest, UndefinedMacro) {
  Loaded l = Load(R"(
- rule: r
  desc: d
  condition: evt.type = open and nothere
  output: o
  priority: notice
)");
  ASSERT_FALSE(l.set.ok());
  ASSERT_EQ(l.lines.size(), 1u);
  EXPECT_EQ(l.lines[0], "r.yaml:4:14: error: rule 'r': macro 'nothere' is not defined");
}

TEST(RulesLoaderTest, ParseErrorPointsIntoTheCondition) {
  Loaded l = Load(R"(
- rule: r
  desc: d
  condition: evt.type = open and proc.name sh
  output: o
  priority: notice
- macro: m
  condition: "proc.name = (x"
)");
  ASSERT_FALSE(l.set.ok());
  ASSERT_EQ(l.lines.size(), 2u);
  // The macro is parsed first (used or not); the rule's error is at `sh`.
  EXPECT_EQ(l.lines[0].rfind("r.yaml:8:27: error: macro 'm': condition does not parse: ", 0), 0u)
      << l.lines[0];
  EXPECT_EQ(l.lines[1].rfind("r.yaml:4:44: error: rule 'r': condition does not parse: ", 0), 0u)
      << l.lines[1];
}

TEST(RulesLoaderTest, AppendAndOverride) {
  Loaded l = Load(R"(
- list: l
  items: [a]
- list: l
  items: [b]
  append: true
- macro: m
  condition: proc.name in (l)
- macro: m
  condition: or proc.name = c
  append: true
- rule: r
  desc: d
  condition: evt.type = open and m
  output: o
  priority: notice
  tags: [one]
- rule: r
  condition: and fd.name = /x
  append: true
- rule: r
  priority: error
  tags: [two]
  override:
    priority: replace
    tags: append
- rule: r2
  desc: d
  condition: evt.type = open
  output: o
  priority: notice
- rule: r2
  enabled: false
- rule: r3
  desc: d
  condition: evt.type = open
  output: o
  priority: notice
- rule: r3
  desc: d3
  condition: evt.type = openat
  output: o
  priority: notice
)");
  ASSERT_TRUE(l.set.ok()) << l.set.status();
  Ruleset& set = **l.set;
  ASSERT_EQ(set.rules().size(), 3u);
  const Rule& r = set.rules()[0];
  EXPECT_EQ(r.condition_text, "evt.type = open and m and fd.name = /x");
  EXPECT_EQ(r.priority, Priority::kError);
  EXPECT_EQ(r.tags, (std::vector<std::string>{"one", "two"}));
  for (const char* name : {"a", "b", "c"}) {
    EXPECT_TRUE(Matches(set, {{"evt.type", "open"}, {"proc.name", name}, {"fd.name", "/x"}}, "r"))
        << name;
  }
  EXPECT_FALSE(Matches(set, {{"evt.type", "open"}, {"proc.name", "a"}, {"fd.name", "/y"}}, "r"));
  EXPECT_FALSE(set.rules()[1].enabled);
  EXPECT_EQ(set.rules()[2].desc, "d3");  // a redefinition replaces
  EXPECT_EQ(set.rules()[2].syscalls, std::vector<uint32_t>{*SyscallId("openat")});
}

TEST(RulesLoaderTest, AppendToUndefinedAndOverrideErrors) {
  Loaded l = Load(R"(
- rule: r
  condition: and proc.name = x
  append: true
- macro: m
  condition: x
  override:
    condition: prepend
)");
  ASSERT_FALSE(l.set.ok());
  ASSERT_EQ(l.lines.size(), 3u);
  EXPECT_EQ(l.lines[0],
            "r.yaml:4:11: warning: rule 'r': 'append: true' is deprecated: say 'override:' which "
            "keys it appends to");
  EXPECT_EQ(l.lines[1], "r.yaml:2:3: error: rule 'r': changes a rule not defined before");
  EXPECT_EQ(l.lines[2],
            "r.yaml:8:16: error: macro 'm': override of 'condition' must be append or replace");
}

TEST(RulesLoaderTest, OnlyTextAndCollectionsCanBeAppendedTo) {
  Loaded l = Load(R"(
- rule: r
  desc: d
  condition: evt.type = open
  output: o
  priority: notice
- rule: r
  priority: error
  override:
    priority: append
)");
  ASSERT_FALSE(l.set.ok());
  ASSERT_EQ(l.lines.size(), 1u);
  EXPECT_EQ(l.lines[0],
            "r.yaml:10:15: error: rule 'r': 'priority' cannot be appended to, only replaced");
}

TEST(RulesLoaderTest, ReplacingAnUndefinedMacroOrListDefinesIt) {
  const std::string replaced = R"(
- list: shells
  items: [bash]
  override:
    items: replace
- macro: shell_procs
  condition: proc.name in (shells)
  override:
    condition: replace
- rule: r
  desc: d
  condition: evt.type = open and shell_procs
  output: o
  priority: notice
)";
  Loaded ok = Load(replaced);
  ASSERT_TRUE(ok.set.ok()) << ok.set.status();
  EXPECT_TRUE(ok.lines.empty());
  EXPECT_TRUE(Matches(**ok.set, {{"evt.type", "open"}, {"proc.name", "bash"}}, "r"));

  Loaded appended = Load(replaced + R"(- list: more
  items: [x]
  override:
    items: append
)");
  ASSERT_FALSE(appended.set.ok()) << "appending to an undefined list stays an error";
  ASSERT_EQ(appended.lines.size(), 1u);
  EXPECT_EQ(appended.lines[0],
            "r.yaml:15:3: error: list 'more': appends to a list not defined before");
}

TEST(RulesLoaderTest, DeprecatedFormsWarn) {
  Loaded l = Load(R"(
- rule: r
  desc: d
  condition: evt.type = open
  output: o
  priority: notice
- rule: r
  enabled: false
)");
  ASSERT_TRUE(l.set.ok()) << l.set.status();
  ASSERT_EQ(l.lines.size(), 1u);
  EXPECT_EQ(l.lines[0],
            "r.yaml:8:12: warning: rule 'r': a rule item with only 'enabled' is deprecated: say "
            "'override: {enabled: replace}'");
  EXPECT_FALSE((*l.set)->rules()[0].enabled);
}

TEST(RulesLoaderTest, ExceptionsTupleAndSingleFieldForms) {
  Loaded l = Load(R"(
- list: allowed_dirs
  items: [/opt, /srv]
- rule: r
  desc: d
  condition: evt.type = open and fd.name startswith /etc
  output: o
  priority: notice
  exceptions:
    - name: proc_file
      fields: [proc.name, fd.name]
      values:
        - [vi, /etc/hosts]
        - [vim, /etc/passwd]
    - name: names
      fields: proc.name
      values: [puppet, chef]
    - name: dirs
      fields: [proc.pname, fd.directory]
      comps: [=, pmatch]
      values:
        - [dpkg, [/etc/apt]]
        - [rpm, allowed_dirs]
- rule: r
  exceptions:
    - name: names
      values: [salt]
  append: true
)");
  ASSERT_TRUE(l.set.ok()) << l.set.status();
  Ruleset& set = **l.set;
  auto ev = [](const char* proc, const char* pname, const char* file, const char* dir) {
    return std::map<std::string, std::string>{{"evt.type", "open"},
                                              {"proc.name", proc},
                                              {"proc.pname", pname},
                                              {"fd.name", file},
                                              {"fd.directory", dir}};
  };
  EXPECT_TRUE(Matches(set, ev("cat", "bash", "/etc/hosts", "/etc"), "r"));
  EXPECT_FALSE(Matches(set, ev("vi", "bash", "/etc/hosts", "/etc"), "r"));
  EXPECT_TRUE(Matches(set, ev("vi", "bash", "/etc/passwd", "/etc"), "r"));
  EXPECT_FALSE(Matches(set, ev("vim", "bash", "/etc/passwd", "/etc"), "r"));
  EXPECT_FALSE(Matches(set, ev("chef", "bash", "/etc/x", "/etc"), "r"));
  EXPECT_FALSE(Matches(set, ev("salt", "bash", "/etc/x", "/etc"), "r"));
  EXPECT_FALSE(Matches(set, ev("x", "dpkg", "/etc/apt/s", "/etc/apt/sources.d"), "r"));
  EXPECT_TRUE(Matches(set, ev("x", "dpkg", "/etc/s", "/etc"), "r"));
  EXPECT_FALSE(Matches(set, ev("x", "rpm", "/etc/s", "/srv/y"), "r"));
}

TEST(RulesLoaderTest, ExceptionWithMismatchedValues) {
  Loaded l = Load(R"(
- rule: r
  desc: d
  condition: evt.type = open
  output: o
  priority: notice
  exceptions:
    - name: e
      fields: [proc.name, fd.name]
      values:
        - [vi]
)");
  ASSERT_FALSE(l.set.ok());
  ASSERT_EQ(l.lines.size(), 1u);
  EXPECT_EQ(l.lines[0],
            "r.yaml:8:7: error: rule 'r' exception 'e': a value has 1 items for 2 fields");
}

TEST(RulesLoaderTest, MissingFieldIsAnErrorUnlessSkippedOrDisabled) {
  const std::string yaml = R"(
- rule: r
  desc: d
  condition: evt.type = open and k8s.ns.name = x
  output: o
  priority: notice
- rule: quiet
  desc: d
  condition: evt.type = open and k8s.pod.name = x
  output: o
  priority: notice
  skip-if-unknown-filter: true
- rule: ok
  desc: d
  condition: evt.type = open
  output: o
  priority: notice
)";
  Loaded l = Load(yaml);
  ASSERT_FALSE(l.set.ok());
  EXPECT_EQ(l.lines,
            (std::vector<std::string>{
                "r.yaml:4:14: error: rule 'r': field 'k8s.ns.name' is not one Kestrel has",
                "r.yaml:9:14: warning: rule 'quiet': field 'k8s.pod.name' is not one Kestrel "
                "has: rule skipped (skip-if-unknown-filter)"}));

  // Disabled, the rule is skipped with a warning (an error under strict).
  const std::string disabled = absl::StrCat(yaml, "- rule: r\n  enabled: false\n");
  l = Load(disabled);
  ASSERT_TRUE(l.set.ok()) << l.set.status();
  EXPECT_EQ(l.lines,
            (std::vector<std::string>{
                "r.yaml:19:12: warning: rule 'r': a rule item with only 'enabled' is deprecated: "
                "say 'override: {enabled: replace}'",
                "r.yaml:4:14: warning: rule 'r': field 'k8s.ns.name' is not one Kestrel has: "
                "rule skipped (disabled)",
                "r.yaml:9:14: warning: rule 'quiet': field 'k8s.pod.name' is not one Kestrel "
                "has: rule skipped (skip-if-unknown-filter)"}));
  EXPECT_EQ((*l.set)->skipped(), 2u);
  ASSERT_EQ((*l.set)->rules().size(), 1u);
  EXPECT_EQ((*l.set)->rules()[0].name, "ok");

  Loaded strict = Load(disabled, {.strict = true});
  ASSERT_FALSE(strict.set.ok());
  ASSERT_EQ(strict.lines.size(), 3u);
  EXPECT_EQ(strict.lines[1],
            "r.yaml:4:14: error: rule 'r': field 'k8s.ns.name' is not one Kestrel has");
}

TEST(RulesLoaderTest, UnknownKeysAreWarnings) {
  Loaded l = Load(R"(
- rule: r
  desc: d
  condition: evt.type = open
  output: o
  priority: notice
  colour: red
- frobnicate: 1
)");
  ASSERT_TRUE(l.set.ok()) << l.set.status();
  ASSERT_EQ(l.lines.size(), 2u);
  EXPECT_EQ(l.lines[0], "r.yaml:7:3: warning: rule 'r': unknown key 'colour': ignored");
  EXPECT_EQ(l.lines[1], "r.yaml:8:3: warning: unknown item (keys: frobnicate): ignored");
}

TEST(RulesLoaderTest, MissingKeysAndBadValues) {
  Loaded l = Load(R"(
- rule: r
  desc: d
  condition: evt.type = open
  priority: notice
- rule: p
  desc: d
  condition: evt.type = open
  output: o
  priority: urgent
- list: l
  items: x
)");
  ASSERT_FALSE(l.set.ok());
  ASSERT_EQ(l.lines.size(), 3u);
  EXPECT_EQ(l.lines[0], "r.yaml:2:3: error: rule 'r': a rule needs 'output'");
  EXPECT_EQ(l.lines[1],
            "r.yaml:10:13: error: rule 'p': unknown priority 'urgent' (emergency, alert, "
            "critical, error, warning, notice, informational, debug)");
  EXPECT_EQ(l.lines[2], "r.yaml:12:10: error: list 'l': items must be a list");
}

TEST(RulesLoaderTest, NotYaml) {
  Loaded l = Load("- rule: [\n");
  ASSERT_FALSE(l.set.ok());
  ASSERT_EQ(l.lines.size(), 1u);
  EXPECT_EQ(l.lines[0].rfind("r.yaml:2:1: error: not valid YAML: ", 0), 0u) << l.lines[0];
}

TEST(RulesLoaderTest, EngineAndPluginVersions) {
  EXPECT_TRUE(Load("- required_engine_version: 0.57.0\n").set.ok());
  EXPECT_TRUE(Load("- required_engine_version: 17\n").set.ok());
  Loaded newer = Load("- required_engine_version: 0.99.0\n");
  ASSERT_FALSE(newer.set.ok());
  EXPECT_EQ(newer.lines[0],
            "r.yaml:1:28: error: required_engine_version: the file needs engine version "
            "0.99.0; Kestrel's is 0.57.0");
  EXPECT_TRUE(
      Load("- required_plugin_versions:\n    - name: container\n      version: 0.4.0\n").set.ok());
  Loaded k8s = Load("- required_plugin_versions:\n    - name: k8saudit\n      version: 0.1.0\n");
  ASSERT_FALSE(k8s.set.ok());
  EXPECT_EQ(k8s.lines[0],
            "r.yaml:2:7: error: required_plugin_versions: needs the plugin 'k8saudit': Kestrel "
            "loads no plugins (only the container plugin's fields are built in)");
}

TEST(RulesLoaderTest, OtherSourcesAreSkipped) {
  Loaded l = Load(R"(
- rule: audit
  desc: d
  condition: ka.verb = create
  output: o
  priority: notice
  source: k8s_audit
)");
  ASSERT_TRUE(l.set.ok()) << l.set.status();
  EXPECT_EQ((*l.set)->skipped(), 1u);
  ASSERT_EQ(l.lines.size(), 1u);
  EXPECT_EQ(l.lines[0],
            "r.yaml:7:11: warning: rule 'audit': source 'k8s_audit' is not one Kestrel reads: "
            "rule skipped");
}

TEST(RulesLoaderTest, DirectoriesLoadTheirYamlFilesByName) {
  const std::string dir = ::testing::TempDir() + "/kestrel-rules-dir";
  std::filesystem::create_directories(dir);
  {
    std::ofstream(dir + "/b.yaml") << "- rule: r\n  condition: or evt.type = openat\n"
                                      "  append: true\n";
    std::ofstream(dir + "/a.yml") << "- rule: r\n  desc: d\n  condition: evt.type = open\n"
                                     "  output: o\n  priority: notice\n";
    std::ofstream(dir + "/c.txt") << "not yaml [";
  }
  TestFields fields;
  std::vector<Diagnostic> diags;
  auto set = Ruleset::Load({dir}, {}, fields, &diags);
  std::filesystem::remove_all(dir);
  ASSERT_TRUE(set.ok()) << set.status();
  EXPECT_EQ((*set)->rules()[0].syscalls.size(), 2u);

  auto missing = Ruleset::Load({dir + "/nope.yaml"}, {}, fields, &diags);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(diags.back().ToString(),
            dir + "/nope.yaml: error: cannot open the file: No such file or directory");
}

// A good file: every item used, names a condition can use, no deprecated
// field, no value that names a field.
constexpr char kClean[] = R"(
- list: editors
  items: [vi, nano]
- list: tools
  items: [editors, ed]
- macro: opened
  condition: evt.type in (open, openat)
- macro: placeholder
  condition: (evt.num = 0)
- rule: r
  desc: d
  condition: opened and proc.name in (tools) and not placeholder
  output: '%proc.name opened %fd.name'
  priority: notice
  exceptions:
    - name: e
      fields: [proc.pname]
      values: [[sshd]]
- rule: never
  desc: a placeholder rule
  condition: placeholder
  output: o
  priority: notice
)";

TEST(RulesLoaderTest, AGoodFileHasNoWarning) {
  Loaded l = Load(kClean);
  ASSERT_TRUE(l.set.ok()) << l.set.status();
  EXPECT_TRUE(l.lines.empty()) << l.lines[0];
  EXPECT_TRUE((*l.set)->rules()[1].syscalls.empty());
  EXPECT_FALSE((*l.set)->rules()[1].any_syscall);
}

TEST(RulesLoaderTest, EvtDirIsDeprecated) {
  Loaded l = Load(R"(
- macro: entering
  condition: proc.name = x or evt.dir = <
- rule: r
  desc: d
  condition: evt.type = open and evt.dir = < and entering
  output: 'dir %evt.dir name %proc.name'
  priority: notice
)");
  ASSERT_TRUE(l.set.ok()) << l.set.status();
  const std::string why =
      "evt.dir is deprecated: every event is an exit event, so 'evt.dir = <' always holds and "
      "'evt.dir = >' never does; drop the comparison";
  EXPECT_EQ(l.lines,
            (std::vector<std::string>{
                "r.yaml:6:34: warning: rule 'r': " + why,
                "r.yaml:7:17: warning: rule 'r': evt.dir is deprecated: every event is an exit "
                "event, so the output always shows '<'",
                "r.yaml:3:31: warning: macro 'entering': " + why}));
}

TEST(RulesLoaderTest, NamesAConditionCannotUse) {
  Loaded l = Load(R"(
- list: my list
  items: [a]
- macro: 2fast
  condition: evt.type = open
- macro: my-macro
  condition: evt.type = open
- rule: r
  desc: d
  condition: evt.type = open
  output: o
  priority: notice
)");
  ASSERT_TRUE(l.set.ok()) << l.set.status();
  EXPECT_EQ(l.lines,
            (std::vector<std::string>{
                "r.yaml:2:9: warning: list 'my list': not a name a condition can use: a list "
                "name is one word with no quote, parenthesis, '=' or ','",
                "r.yaml:4:10: warning: macro '2fast': not a name a condition can use: a macro "
                "name starts with a letter and has only letters, digits and '_'",
                "r.yaml:6:10: warning: macro 'my-macro': not a name a condition can use: a "
                "macro name starts with a letter and has only letters, digits and '_'",
                "r.yaml:4:3: warning: macro '2fast': unused: no rule or macro names it",
                "r.yaml:6:3: warning: macro 'my-macro': unused: no rule or macro names it",
                "r.yaml:2:3: warning: list 'my list': unused: no rule, macro or list names it"}));
}

TEST(RulesLoaderTest, DuplicateExceptionNames) {
  Loaded l = Load(R"(
- rule: r
  desc: d
  condition: evt.type = open
  output: o
  priority: notice
  exceptions:
    - name: e
      fields: [proc.name]
      values: [[a]]
    - name: e
      fields: [proc.pname]
      values: [[b]]
- rule: r
  exceptions:
    - name: e
      values: [[c]]
  override:
    exceptions: append
)");
  ASSERT_TRUE(l.set.ok()) << l.set.status();
  // Appending to an exception by its name is how values are added: no warning.
  EXPECT_EQ(l.lines, (std::vector<std::string>{
                         "r.yaml:11:13: warning: rule 'r' exception 'e': a second exception of "
                         "this name in the same list: both apply; give each its own name"}));
}

TEST(RulesLoaderTest, ValuesThatNameFields) {
  Loaded l = Load(R"(
- rule: r
  desc: d
  condition: evt.type = open and proc.name = proc.pname and proc.name != "proc.pname"
  output: o
  priority: notice
  exceptions:
    - name: e
      fields: [proc.name, fd.name]
      values:
        - [proc.pname, '"fd.directory"']
        - [bash, /etc]
)");
  ASSERT_TRUE(l.set.ok()) << l.set.status();
  EXPECT_EQ(l.lines,
            (std::vector<std::string>{
                "r.yaml:4:46: warning: rule 'r': value 'proc.pname' names a field but is "
                "compared as text: write val(proc.pname) to compare with the field, or quote it "
                "to say the text is meant",
                "r.yaml:11:12: warning: rule 'r' exception 'e': value 'proc.pname' names a "
                "field but an exception value is text; quote it ('\"proc.pname\"') to say the "
                "text is meant"}));
}

TEST(RulesLoaderTest, UnusedMacrosAndLists) {
  Loaded l = Load(R"(
- list: used_by_list
  items: [a]
- list: used_by_unused_macro
  items: [b]
- list: lonely
  items: [c, used_by_list]
- macro: lonely_macro
  condition: proc.name in (used_by_unused_macro) and helper
- macro: helper
  condition: evt.type = open
- macro: for_disabled
  condition: evt.type = close
- rule: r
  desc: d
  condition: for_disabled
  output: o
  priority: notice
  enabled: false
)");
  ASSERT_TRUE(l.set.ok()) << l.set.status();
  EXPECT_EQ(l.lines,
            (std::vector<std::string>{
                "r.yaml:8:3: warning: macro 'lonely_macro': unused: no rule or macro names it",
                "r.yaml:6:3: warning: list 'lonely': unused: no rule, macro or list names it"}));
}

TEST(RulesLoaderTest, UndefinedMacroInAnUnusedMacroIsAWarning) {
  Loaded l = Load(R"(
- macro: unused
  condition: evt.type = open and not_defined
- rule: r
  desc: d
  condition: evt.type = open
  output: o
  priority: notice
)");
  ASSERT_TRUE(l.set.ok()) << l.set.status();
  EXPECT_EQ(l.lines,
            (std::vector<std::string>{
                "r.yaml:3:34: warning: macro 'unused': macro 'not_defined' is not defined (an "
                "error once a rule uses this macro)",
                "r.yaml:2:3: warning: macro 'unused': unused: no rule or macro names it"}));
  // Used by a rule, it is the error it always was.
  l = Load(R"(
- macro: used
  condition: evt.type = open and not_defined
- rule: r
  desc: d
  condition: used
  output: o
  priority: notice
)");
  ASSERT_FALSE(l.set.ok());
  EXPECT_EQ(l.lines, (std::vector<std::string>{
                         "r.yaml:6:14: error: rule 'r': macro 'not_defined' is not defined"}));
}

TEST(RulesLoaderTest, EvtTypeWarningsOnlyWhereFalcoGivesThem) {
  Loaded l = Load(R"(
- rule: never
  desc: d
  condition: evt.num = 0
  output: o
  priority: notice
- rule: never in
  desc: d
  condition: evt.num in (0) and proc.name = x
  output: o
  priority: notice
- rule: every
  desc: d
  condition: evt.num != 0 and proc.name = x
  output: o
  priority: notice
- rule: contradiction
  desc: d
  condition: evt.type = open and evt.type = close
  output: o
  priority: notice
)");
  ASSERT_TRUE(l.set.ok()) << l.set.status();
  EXPECT_EQ(l.lines,
            (std::vector<std::string>{
                "r.yaml:14:14: warning: rule 'every': the condition does not constrain evt.type: "
                "it is evaluated for every syscall",
                "r.yaml:19:14: warning: rule 'contradiction': the condition can match no "
                "syscall"}));
  EXPECT_TRUE((*l.set)->rules()[0].syscalls.empty());
  EXPECT_FALSE((*l.set)->rules()[0].any_syscall);
}

TEST(RulesLoaderTest, ARuleNameBelongsToOneSource) {
  const std::string syscall_rule = R"(
- rule: r
  desc: d
  condition: evt.type = open
  output: o
  priority: notice
)";
  Loaded l = Load(syscall_rule + R"(- rule: r
  desc: d
  condition: ka.verb = create
  output: o
  priority: notice
  source: k8s_audit
)");
  ASSERT_FALSE(l.set.ok());
  EXPECT_EQ(l.lines, (std::vector<std::string>{
                         "r.yaml:12:11: error: rule 'r': source conflict: the rule was defined "
                         "for source 'syscall' and this item is for source 'k8s_audit'; a rule "
                         "name belongs to one source"}));
  // The other way round, with no `source:` (syscall).
  l = Load(R"(
- rule: r
  desc: d
  condition: ka.verb = create
  output: o
  priority: notice
  source: k8s_audit
- rule: r
  desc: d
  condition: evt.type = open
  output: o
  priority: notice
)");
  ASSERT_FALSE(l.set.ok());
  EXPECT_EQ(l.lines.back(),
            "r.yaml:8:3: error: rule 'r': source conflict: the rule was defined for source "
            "'k8s_audit' and this item is for source 'syscall'; a rule name belongs to one "
            "source");
  // Changing a skipped rule of another source is no error: the change is skipped with it.
  l = Load(R"(
- rule: a
  desc: d
  condition: ka.verb = create
  output: o
  priority: notice
  source: k8s_audit
- rule: a
  condition: and ka.user.name = bob
  override:
    condition: append
)");
  ASSERT_TRUE(l.set.ok()) << l.set.status();
  EXPECT_EQ(l.lines.size(), 1u);
}

}  // namespace
}  // namespace kestrel::engine::rules
