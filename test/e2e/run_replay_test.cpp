// `kestrel run --replay` on the committed capture files
// (test/fixtures/capture/, made by make_fixtures.sh): no probe is loaded,
// so the alerts are known to the byte, times included (the file's boot
// time). A file damaged at its tail gives the alerts of what comes before,
// one line on stderr and exit code 1.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "../support/json_value.h"
#include "../support/strict_json.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "kestrel_process.h"
#include "run_triggers.h"

namespace kestrel::e2e {
namespace {

constexpr char kFixture[] = KESTREL_SOURCE_DIR "/test/fixtures/capture/schema-v2.kcap";

// The fixture's workload (make_fixtures.sh): kfixture opens known.txt and
// fails to open missing-1, -2 and -3, three times over. Conditions in the
// file's terms only: its records are the only truth about its processes.
constexpr char kRules[] = R"yaml(- rule: Fixture missed a file
  desc: the fixture's workload failed to open a file
  condition: evt.type = openat and proc.name = kfixture and evt.rawres < 0 and evt.arg.name startswith /tmp/kestrel-fixture/
  output: "%proc.name could not open %evt.arg.name (%evt.res) at %evt.time.iso8601 (pid %proc.pid)"
  priority: ERROR
  tags: [fixture, files]
- rule: Fixture opened its known file
  desc: the fixture's workload opened known.txt
  condition: evt.type = openat and proc.name = kfixture and fd.name = "/tmp/kestrel-fixture/known.txt"
  output: "%proc.name opened %fd.name as fd %evt.rawres (evt.num %evt.num)"
  priority: INFO
  tags: [fixture]
)yaml";

// The value of `key` in a one-line JSON alert, at its top level or in its
// output_fields, as written: a string in quotes, a number bare, an array
// of strings as ["a","b"].
std::string AlertValue(const std::string& json, const std::string& key) {
  const std::optional<testing::JsonValue> alert = testing::JsonValue::Parse(json);
  if (!alert) return "<not json>";
  const testing::JsonValue* v = alert->Find(key);
  if (v == nullptr) {
    if (const testing::JsonValue* fields = alert->Find("output_fields")) v = fields->Find(key);
  }
  if (v == nullptr) return "<absent>";
  const auto quoted = [](const std::string& s) { return absl::StrCat("\"", s, "\""); };
  switch (v->kind) {
    case testing::JsonValue::Kind::kString:
      return quoted(v->text);
    case testing::JsonValue::Kind::kArray: {
      std::vector<std::string> items;
      for (const testing::JsonValue& item : v->items) items.push_back(quoted(item.text));
      return absl::StrCat("[", absl::StrJoin(items, ","), "]");
    }
    default:
      return v->text;
  }
}

// "HH:MM:SS.nnnnnnnnn" of an ISO 8601 time: how Falco's text output, and
// so the JSON's "output", starts.
std::string TimeOfDay(const std::string& iso8601) { return iso8601.substr(11, 18); }

std::string ReadWhole(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// The byte offset of the last block of a capture file
// (engine/capture_file/file_format.h: a 16-byte file header, then blocks
// of a 40-byte header whose u32 at byte 8 is the payload's length).
size_t LastBlockAt(const std::string& file) {
  size_t at = 16, last = at;
  while (at + 40 <= file.size()) {
    uint32_t stored = 0;
    std::memcpy(&stored, file.data() + at + 8, sizeof stored);
    last = at;
    at += 40 + stored;
  }
  return last;
}

class RunReplayTest : public ::testing::Test {
 protected:
  void SetUp() override { WriteWhole(rules_, kRules); }
  CliResult Replay(const std::string& file) {
    return RunKestrel({"run", "-r", rules_, "--replay", file, "-o", "json_output=true"});
  }
  RunTempDir dir_;
  const std::string rules_ = dir_.File("rules.yaml");
};

// The values below are the fixture's own: its boot time
// (1796152012653238294) plus each record's ts_ns, its host ("vm"), the
// workload's pid, and each record's place in the file (evt.num).
TEST_F(RunReplayTest, FixtureGivesExactAlerts) {
  const CliResult r = Replay(kFixture);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<std::string> alerts = Lines(r.out);
  ASSERT_EQ(alerts.size(), 6u) << r.out << r.err;
  const std::string dir = "/tmp/kestrel-fixture/";
  const char* known_times[] = {"2026-12-02T03:01:20.230057187Z", "2026-12-02T03:01:20.230224405Z",
                               "2026-12-02T03:01:20.230281694Z"};
  const char* missing_times[] = {"2026-12-02T03:01:20.230175372Z", "2026-12-02T03:01:20.230267758Z",
                                 "2026-12-02T03:01:20.230314917Z"};
  const int known_nums[] = {29, 50, 71};
  for (int i = 0; i < 3; ++i) {
    SCOPED_TRACE(i);
    const std::string& known = alerts[2 * i];
    EXPECT_EQ(AlertValue(known, "rule"), "\"Fixture opened its known file\"");
    EXPECT_EQ(AlertValue(known, "priority"), "\"Informational\"");
    EXPECT_EQ(AlertValue(known, "time"), absl::StrCat("\"", known_times[i], "\""));
    EXPECT_EQ(AlertValue(known, "hostname"), "\"vm\"");
    EXPECT_EQ(AlertValue(known, "output"),
              absl::StrCat("\"", TimeOfDay(known_times[i]), ": Informational kfixture opened ", dir,
                           "known.txt as fd 4 (evt.num ", known_nums[i], ")\""));
    EXPECT_EQ(AlertValue(known, "tags"), "[\"fixture\"]");

    const std::string& missing = alerts[2 * i + 1];
    EXPECT_EQ(AlertValue(missing, "rule"), "\"Fixture missed a file\"");
    EXPECT_EQ(AlertValue(missing, "priority"), "\"Error\"");
    EXPECT_EQ(AlertValue(missing, "time"), absl::StrCat("\"", missing_times[i], "\""));
    EXPECT_EQ(
        AlertValue(missing, "output"),
        absl::StrCat("\"", TimeOfDay(missing_times[i]), ": Error kfixture could not open ", dir,
                     "missing-", i + 1, " (ENOENT) at ", missing_times[i], " (pid 28251)\""));
    EXPECT_EQ(AlertValue(missing, "evt.res"), "\"ENOENT\"");
    EXPECT_EQ(AlertValue(missing, "proc.pid"), "28251");
  }
  // The stats line: the file's events at a rate, its alerts by priority.
  EXPECT_TRUE(absl::StrContains(r.err, "kestrel run: events ")) << r.err;
  EXPECT_TRUE(absl::StrContains(r.err,
                                "/s), dropped 0 (as the file's drop markers say), alerts 6 "
                                "(Error 3, Informational 3)"))
      << r.err;
}

// An alert as falcosidekick decodes Falco's JSON: every key it reads, each
// of the type it expects.
struct SidekickAlert {
  std::string output, priority, rule, time, source, hostname;
  std::vector<std::string> tags;
  const testing::JsonValue* output_fields = nullptr;
  std::optional<testing::JsonValue> doc;

  // Empty when `line` is strict JSON with every key of its type.
  static std::string Decode(const std::string& line, SidekickAlert& out) {
    if (std::string e = testing::StrictJson::Check(line); !e.empty()) return e;
    out.doc = testing::JsonValue::Parse(line);
    if (!out.doc || out.doc->kind != testing::JsonValue::Kind::kObject) return "not an object";
    const std::pair<const char*, std::string*> strings[] = {
        {"output", &out.output}, {"priority", &out.priority}, {"rule", &out.rule},
        {"time", &out.time},     {"source", &out.source},     {"hostname", &out.hostname}};
    for (const auto& [key, to] : strings) {
      const testing::JsonValue* v = out.doc->Find(key);
      if (v == nullptr || v->kind != testing::JsonValue::Kind::kString) {
        return absl::StrCat(key, " is no string");
      }
      *to = v->text;
    }
    const testing::JsonValue* tags = out.doc->Find("tags");
    if (tags == nullptr || tags->kind != testing::JsonValue::Kind::kArray) return "tags";
    for (const testing::JsonValue& t : tags->items) {
      if (t.kind != testing::JsonValue::Kind::kString) return "a tag is no string";
      out.tags.push_back(t.text);
    }
    out.output_fields = out.doc->Find("output_fields");
    if (out.output_fields == nullptr ||
        out.output_fields->kind != testing::JsonValue::Kind::kObject) {
      return "output_fields";
    }
    return "";
  }
};

// append_output from a config file (Falco's suggested fields, text and
// fields for some rules only, ${VAR} from the environment), and
// FALCO_HOSTNAME naming the host in every alert.
TEST_F(RunReplayTest, AppendOutputAndHostnameAsFalcoWritesThem) {
  const std::string config = dir_.File("kestrel.yaml");
  WriteWhole(config, R"yaml(json_output: true
append_output:
  - match:
      tags: [files]
    extra_output: "on %evt.hostname"
    extra_fields:
      - evt.num
      - site: "${KESTREL_E2E_SITE}/%proc.name"
  - match:
      rule: Fixture opened its known file
    extra_fields:
      - proc.pid
  - suggested_output: true
)yaml");
  setenv("FALCO_HOSTNAME", "falco-node-1", 1);
  setenv("KESTREL_E2E_SITE", "eu-1", 1);
  const CliResult r = RunKestrel({"run", "-c", config, "-r", rules_, "--replay", kFixture});
  unsetenv("FALCO_HOSTNAME");
  unsetenv("KESTREL_E2E_SITE");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<std::string> lines = Lines(r.out);
  ASSERT_EQ(lines.size(), 6u) << r.out << r.err;
  const std::string suggested =
      " container_id=host container_name=host container_image_repository=<NA> "
      "container_image_tag=<NA> k8s_pod_name=<NA> k8s_ns_name=<NA>";
  for (size_t i = 0; i < lines.size(); ++i) {
    SCOPED_TRACE(lines[i]);
    SidekickAlert a;
    ASSERT_EQ(SidekickAlert::Decode(lines[i], a), "");
    EXPECT_EQ(a.hostname, "falco-node-1");
    EXPECT_EQ(a.source, "syscall");
    const testing::JsonValue& f = *a.output_fields;
    ASSERT_NE(f.Find("container.id"), nullptr);
    EXPECT_EQ(f.Find("container.id")->text, "host");
    ASSERT_NE(f.Find("k8s.ns.name"), nullptr);
    EXPECT_EQ(f.Find("k8s.ns.name")->kind, testing::JsonValue::Kind::kNull);
    if (i % 2 == 0) {  // known.txt: tags [fixture]
      EXPECT_EQ(a.rule, "Fixture opened its known file");
      EXPECT_EQ(a.priority, "Informational");
      EXPECT_TRUE(absl::EndsWith(a.output, "known.txt as fd 4 (evt.num " +
                                               std::to_string(29 + 21 * (i / 2)) + ")" + suggested))
          << a.output;
      EXPECT_EQ(f.Find("site"), nullptr);
      ASSERT_NE(f.Find("proc.pid"), nullptr);
      EXPECT_EQ(f.Find("proc.pid")->kind, testing::JsonValue::Kind::kNumber);
      EXPECT_EQ(f.Find("proc.pid")->text, "28251");
    } else {  // missing-N: tags [fixture, files]
      EXPECT_EQ(a.rule, "Fixture missed a file");
      EXPECT_EQ(a.tags, (std::vector<std::string>{"files", "fixture"}));
      EXPECT_TRUE(absl::EndsWith(a.output, "(pid 28251) on vm" + suggested)) << a.output;
      ASSERT_NE(f.Find("evt.hostname"), nullptr);
      EXPECT_EQ(f.Find("evt.hostname")->text, "vm");
      ASSERT_NE(f.Find("site"), nullptr);
      EXPECT_EQ(f.Find("site")->text, "eu-1/kfixture");
      ASSERT_NE(f.Find("evt.num"), nullptr);
      EXPECT_EQ(f.Find("evt.num")->kind, testing::JsonValue::Kind::kNumber);
    }
  }
}

// A bad field in an append_output entry fails the load, naming the entry.
TEST_F(RunReplayTest, AppendOutputWithABadFieldIsRefused) {
  const CliResult r =
      RunKestrel({"run", "-r", rules_, "--replay", kFixture, "-o",
                  "append_output=[{suggested_output: true}, {extra_output: 'x=%proc.nosuch'}]"});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_TRUE(absl::StrContains(r.err, "append_output[1].extra_output: ")) << r.err;
  EXPECT_TRUE(absl::StrContains(r.err, "proc.nosuch")) << r.err;
  EXPECT_EQ(r.out, "");
}

// As a capture killed while writing a block leaves its file: the fixture
// and, after it, the first 100 bytes of a block.
TEST_F(RunReplayTest, DamagedTailGivesTheAlertsBeforeItAndOneLineAndExitsOne) {
  const CliResult whole = Replay(kFixture);
  ASSERT_EQ(whole.exit_code, 0) << whole.err;
  const std::string bytes = ReadWhole(kFixture);
  const std::string cut = dir_.File("cut.kcap");
  std::ofstream(cut, std::ios::binary) << bytes << bytes.substr(LastBlockAt(bytes), 100);

  const CliResult r = Replay(cut);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(Lines(r.out), Lines(whole.out));
  std::vector<std::string> damage;
  for (const std::string& line : Lines(r.err)) {
    if (absl::StrContains(line, " is damaged: ")) damage.push_back(line);
  }
  ASSERT_EQ(damage.size(), 1u) << r.err;
  EXPECT_TRUE(absl::StartsWith(damage[0], absl::StrCat("kestrel run: ", cut, " is damaged: ")))
      << damage[0];
  EXPECT_TRUE(absl::StrContains(
      damage[0], absl::StrCat("the 100 bytes from byte ", bytes.size(), " on were not read")))
      << damage[0];
}

// Falco 0.44's modifiers and multi-value transformers, in conditions and
// in exceptions, judged on the fixture's records.
constexpr char kLanguageRules[] = R"yaml(- rule: Known by suffix
  desc: anyof
  condition: evt.type = openat and fd.name endswith anyof (/known.txt, /nothing)
  output: "anyof %fd.name"
  priority: INFO
- rule: Missing by one prefix
  desc: oneof, where two prefixes hold
  condition: evt.type = openat and evt.arg.name startswith oneof (/tmp/kestrel-fixture/missing-, /tmp/kestrel-fixture/miss)
  output: "never %evt.arg.name"
  priority: INFO
- rule: Missing but excepted
  desc: an exception with a modified comp
  condition: evt.type = openat and evt.rawres < 0 and evt.arg.name contains allof (kestrel-fixture, missing-)
  output: "allof %evt.arg.name"
  priority: INFO
  exceptions:
    - name: first_and_last
      fields: [evt.arg.name]
      comps: [endswith anyof]
      values:
        - [[-1, -3]]
- rule: Made values
  desc: concat, join, getopt
  condition: >
    evt.type = openat and concat(proc.name, ":", basename(fd.name)) = "kfixture:known.txt"
    and join("|", (proc.name, evt.res, evt.rawres)) = "kfixture|SUCCESS|4"
    and getopt(("-n", proc.name, "-x"), "n:x")[n] = kfixture
  output: "made %fd.name"
  priority: INFO
)yaml";

TEST_F(RunReplayTest, FalcoModifiersAndTransformersJudgeTheFixture) {
  const std::string rules = dir_.File("language.yaml");
  WriteWhole(rules, kLanguageRules);
  const CliResult validate = RunKestrel({"rules", "validate", rules});
  EXPECT_EQ(validate.exit_code, 0) << validate.out << validate.err;
  const CliResult r = RunKestrel({"run", "-r", rules, "--replay", kFixture, "-o",
                                  "json_output=true", "-o", "rule_matching=all"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> got;
  for (const std::string& alert : Lines(r.out)) {
    const std::string output = AlertValue(alert, "output");
    got.push_back(output.substr(output.find(": Informational ") + 16));
  }
  const std::string dir = "/tmp/kestrel-fixture/";
  std::vector<std::string> want;
  for (int i = 1; i <= 3; ++i) {
    want.push_back(absl::StrCat("anyof ", dir, "known.txt\""));
    want.push_back(absl::StrCat("made ", dir, "known.txt\""));
    if (i == 2) want.push_back(absl::StrCat("allof ", dir, "missing-2\""));
  }
  EXPECT_EQ(got, want) << r.out;
}

// The fields user space derives (issue 38, deliverable 3) judging the
// fixture: its file holds kfixture alone (no ancestor, no shell), its exec
// record the probe's cgroups (memory on a v1 hierarchy), and evt.reltime
// counts from the file's first syscall record.
constexpr char kDerivedRules[] = R"yaml(- rule: Derived fields
  desc: the fields derived from the lineage, cgroups, event table and capture start
  condition: >
    evt.type = openat and fd.name = /tmp/kestrel-fixture/known.txt
    and thread.cgroup.memory startswith /process_api/ and thread.cgroups contains "cpuset=/ "
    and proc.aenv[0] contains "PATH=/usr/bin:/bin" and not proc.aenv[PATH] exists
    and not proc.aenv[1] exists and not proc.loginshellid exists
    and evt.is_wait = false and evt.reltime.s = 0 and evt.reltime > 100000000
  output: "rel=%evt.reltime ns=%evt.reltime.ns blkio=%thread.cgroup.blkio shell=%proc.loginshellid"
  priority: INFO
)yaml";

TEST_F(RunReplayTest, DerivedFieldsJudgeTheFixture) {
  const std::string rules = dir_.File("derived.yaml");
  WriteWhole(rules, kDerivedRules);
  const CliResult validate = RunKestrel({"rules", "validate", rules});
  EXPECT_EQ(validate.exit_code, 0) << validate.out << validate.err;
  const CliResult r =
      RunKestrel({"run", "-r", rules, "--replay", kFixture, "-o", "json_output=true"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> got;
  for (const std::string& alert : Lines(r.out)) {
    const std::string output = AlertValue(alert, "output");
    got.push_back(output.substr(output.find(": Informational ") + 16));
    EXPECT_TRUE(absl::StrContains(alert, "\"proc.loginshellid\":null")) << alert;
  }
  // The three opens of known.txt, 124971065 ns and more after the first.
  EXPECT_EQ(got, (std::vector<std::string>{
                     "rel=124971065 ns=124971065 blkio=/ shell=<NA>\"",
                     "rel=125138283 ns=125138283 blkio=/ shell=<NA>\"",
                     "rel=125195572 ns=125195572 blkio=/ shell=<NA>\"",
                 }))
      << r.out;
}

TEST_F(RunReplayTest, AModifierOrTransformerMisusedIsNamedWithItsPlace) {
  const std::string rules = dir_.File("bad.yaml");
  WriteWhole(rules, R"yaml(- rule: Bad
  desc: x
  condition: evt.type = openat and concat(proc.name) = x
  output: x
  priority: INFO
)yaml");
  const CliResult r = RunKestrel({"rules", "validate", rules});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_TRUE(absl::StrContains(
      r.out + r.err, absl::StrCat(rules,
                                  ":3:14: error: rule 'Bad': condition does not compile: "
                                  "line 1, column 23: concat() takes 2 "
                                  "arguments or more")))
      << r.out << r.err;
}

}  // namespace
}  // namespace kestrel::e2e
