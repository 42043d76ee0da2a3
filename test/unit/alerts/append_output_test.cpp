// append_output as Falco applies it: which rules an entry matches, the text
// it appends (extra_output, the suggested container fields), the keys it
// adds to output_fields, load-time errors naming the entry; then the JSON
// alert with the text as it is (exact bytes), and FALCO_HOSTNAME.
#include "engine/alerts/append_output.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <time.h>

#include <string>
#include <vector>

#include "../../support/json_value.h"
#include "../../support/strict_json.h"
#include "engine/alerts/alert.h"
#include "engine/alerts/output_format.h"
#include "fields/synthetic_system.h"

namespace kestrel::engine::alerts {
namespace {

using ::kestrel::testing::CatRecord;
using ::kestrel::testing::JsonValue;
using ::kestrel::testing::ReturnName;
using ::kestrel::testing::Str;
using ::kestrel::testing::StrictJson;

const std::vector<std::string> kTags = {"filesystem", "mitre_credential_access"};

// An entry, built a key at a time.
struct E {
  AppendOutput entry;
  E& rule(std::string v) { return entry.rule = std::move(v), *this; }
  E& source(std::string v) { return entry.source = std::move(v), *this; }
  E& tags(std::vector<std::string> v) { return entry.tags = std::move(v), *this; }
  E& extra_output(std::string v) { return entry.extra_output = std::move(v), *this; }
  E& extra_fields(std::vector<std::pair<std::string, std::string>> v) {
    return entry.extra_fields = std::move(v), *this;
  }
  E& suggested_output(bool v) { return entry.suggested_output = v, *this; }
  operator AppendOutput() const { return entry; }  // NOLINT: a builder
};

TEST(AppendOutputTest, MatchesByRuleSourceAndEveryTag) {
  const auto matches = [](const AppendOutput& e) {
    return AppendOutputMatches(e, "Read sensitive file", "syscall", kTags);
  };
  EXPECT_TRUE(matches({}));
  EXPECT_TRUE(matches(E().rule("Read sensitive file")));
  EXPECT_FALSE(matches(E().rule("Read sensitive")));
  EXPECT_TRUE(matches(E().source("syscall")));
  EXPECT_FALSE(matches(E().source("k8s_audit")));
  EXPECT_TRUE(matches(E().tags({"filesystem"})));
  EXPECT_TRUE(matches(E().tags({"mitre_credential_access", "filesystem"})));
  EXPECT_FALSE(matches(E().tags({"filesystem", "network"})));
  EXPECT_TRUE(matches(E().rule("Read sensitive file").source("syscall").tags({"filesystem"})));
  EXPECT_FALSE(matches(E().rule("Read sensitive file").tags({"network"})));
}

TEST(AppendOutputTest, SuggestedFieldsAreWrittenAsFalcoWritesThem) {
  EXPECT_EQ(SuggestedFieldFormat("container.id"), "container_id=%container.id");
  EXPECT_EQ(SuggestedFieldFormat("k8s.ns.name"), "k8s_ns_name=%k8s.ns.name");
}

TEST(AppendOutputTest, AppendsInEntryOrderAfterASpace) {
  const std::vector<AppendOutput> entries = {
      E().extra_output("on=%evt.hostname"),
      E().rule("Other rule").extra_output("never"),
      E().tags({"filesystem"}).extra_output("(fs)").suggested_output(true),
  };
  const AppendedOutput a = ApplyAppendOutput(entries, "Read sensitive file", "syscall", kTags,
                                             "  File opened (file=%fd.name)\n");
  EXPECT_EQ(a.output,
            "File opened (file=%fd.name) on=%evt.hostname (fs) container_id=%container.id "
            "container_name=%container.name "
            "container_image_repository=%container.image.repository "
            "container_image_tag=%container.image.tag k8s_pod_name=%k8s.pod.name "
            "k8s_ns_name=%k8s.ns.name");
  EXPECT_TRUE(a.extra_fields.empty());
  // The container fields are the syscall source's only.
  EXPECT_EQ(ApplyAppendOutput({E().suggested_output(true)}, "r", "k8s_audit", {}, "x").output, "x");
}

TEST(AppendOutputTest, ExtraFieldsAreNamesOrFormatsAndALaterKeyWins) {
  const std::vector<AppendOutput> entries = {
      E().extra_fields({{"proc.pid", ""}, {"home", "/root"}}),
      E().rule("r").extra_fields({{"home", "%user.name"}}),
  };
  const AppendedOutput a = ApplyAppendOutput(entries, "r", "syscall", {}, "x");
  EXPECT_EQ(a.output, "x");
  EXPECT_EQ(a.extra_fields,
            (std::vector<ExtraField>{{"proc.pid", "", true}, {"home", "%user.name", false}}));
}

class AppendOutputRenderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    setenv("TZ", "UTC", 1);
    tzset();
  }

  void Open(std::string_view path) {
    sys_.SetEvent(CatRecord(KESTREL_EVT_OPENAT,
                            {{ReturnName(KESTREL_EVT_OPENAT), 3},
                             {"dirfd", AT_FDCWD},
                             {"flags", O_RDONLY},
                             {"mode", 0}},
                            {{"path", Str(path)}}));
  }

  // The rule "Read sensitive file" (tags kTags) with `entries` applied,
  // rendered for the event and written as JSON.
  Alert Render(const std::vector<AppendOutput>& entries, std::string_view output) {
    EXPECT_TRUE(CheckAppendOutput(entries, sys_.registry()).ok());
    const AppendedOutput a =
        ApplyAppendOutput(entries, "Read sensitive file", "syscall", kTags, output);
    absl::StatusOr<OutputFormat> format =
        OutputFormat::Compile(a.output, sys_.registry(), a.extra_fields);
    EXPECT_TRUE(format.ok()) << format.status();
    Alert alert;
    alert.time_ns = 1700000000000000123ull;
    alert.rule = "Read sensitive file";
    alert.tags = kTags;
    alert.hostname = "h";
    if (format.ok())
      format->Render(sys_.extractor(), alert.output, alert.output_fields, &alert.raw_output);
    return alert;
  }

  testing::SyntheticSystem sys_;
};

TEST_F(AppendOutputRenderTest, ExtraOutputIsInTheLineAndItsFieldsInOutputFields) {
  Open("/etc/passwd");
  const Alert alert = Render({E().extra_output("user=%user.name"), E().suggested_output(true)},
                             "File opened (file=%fd.name)");
  EXPECT_EQ(alert.output,
            "File opened (file=/etc/passwd) user=alice container_id=host container_name=host "
            "container_image_repository=<NA> container_image_tag=<NA> k8s_pod_name=<NA> "
            "k8s_ns_name=<NA>");
  std::optional<JsonValue> v = JsonValue::Parse(AlertToJson(alert, JsonOptions{}));
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(v->Find("output")->text, "22:13:20.000000123: Warning " + alert.output);
  const JsonValue& f = *v->Find("output_fields");
  EXPECT_EQ(f.Keys(),
            (std::vector<std::string>{"container.id", "container.image.repository",
                                      "container.image.tag", "container.name", "evt.time",
                                      "fd.name", "k8s.ns.name", "k8s.pod.name", "user.name"}));
  EXPECT_EQ(f.Find("user.name")->text, "alice");
  EXPECT_EQ(f.Find("container.id")->text, "host");
  EXPECT_EQ(f.Find("k8s.pod.name")->kind, JsonValue::Kind::kNull);
}

TEST_F(AppendOutputRenderTest, ExtraFieldsAreInOutputFieldsOnly) {
  Open("/etc/passwd");
  const Alert alert = Render({E().extra_fields({{"proc.pid", ""},
                                                {"who", "%user.name on %proc.name"},
                                                {"site", "eu-1"},
                                                {"fd.name", "%toupper(fd.name)"}})},
                             "File opened (file=%fd.name)");
  EXPECT_EQ(alert.output, "File opened (file=/etc/passwd)");
  const OutputFields want = {
      {"fd.name", "/ETC/PASSWD", FieldJsonKind::kString},  // the extra key wins
      {"proc.pid", "300", FieldJsonKind::kNumber},         // a field's name: typed
      {"who", "alice on cat", FieldJsonKind::kString},
      {"site", "eu-1", FieldJsonKind::kString},
  };
  EXPECT_EQ(alert.output_fields, want);
  const std::string json = AlertToJson(alert, JsonOptions{});
  EXPECT_NE(json.find(R"("output_fields":{"evt.time":1700000000000000123,"fd.name":"/ETC/PASSWD",)"
                      R"("proc.pid":300,"site":"eu-1","who":"alice on cat"})"),
            std::string::npos)
      << json;
}

TEST_F(AppendOutputRenderTest, ABadFieldIsAnErrorNamingTheEntry) {
  const auto error = [&](const std::vector<AppendOutput>& entries) {
    return std::string(CheckAppendOutput(entries, sys_.registry()).message());
  };
  EXPECT_EQ(error({{}, E().extra_output("x=%proc.nosuch")})
                .rfind("append_output[1].extra_output: "
                       "output format, column 4: field "
                       "proc.nosuch",
                       0),
            0u)
      << error({{}, E().extra_output("x=%proc.nosuch")});
  EXPECT_EQ(error({E().extra_fields({{"home", "%user.homedirx"}})})
                .rfind("append_output[0].extra_fields: extra field home: ", 0),
            0u);
  EXPECT_EQ(error({E().extra_fields({{"no.such.field", ""}})})
                .rfind("append_output[0].extra_fields: extra field no.such.field: ", 0),
            0u);
  EXPECT_EQ(error({E().extra_fields({{"proc.name.x", ""}})}),
            "append_output[0].extra_fields: extra field proc.name.x: not the name of a field");
  // An entry for a source Kestrel has no fields of is not checked.
  EXPECT_EQ(error({E().source("aws_cloudtrail").extra_output("%ct.name")}), "");
}

// Falco's JSON `output` is the text as it is, escaped once by the JSON
// writer; the line for a terminal stays escaped.
TEST_F(AppendOutputRenderTest, JsonOutputHoldsTheTextAsItIs) {
  Open(std::string("/tmp/caf\xc3\xa9 \"q\"\t\x1b[2J\xff\xfe"));
  const Alert alert = Render({}, "open(\"%evt.arg.path\")");
  EXPECT_EQ(alert.output, "open(\"/tmp/caf\\xc3\\xa9 \\\"q\\\"\\x09\\x1b[2J\\xff\\xfe\")");
  JsonOptions options;
  options.include_message = true;
  const std::string json = AlertToJson(alert, options);
  EXPECT_EQ(StrictJson::Check(json), "");
  const std::string text =
      "open(\\\"/tmp/caf\xc3\xa9 \\\"q\\\"\\u0009\\u001b[2J\xef\xbf\xbd\xef\xbf\xbd\\\")";
  EXPECT_NE(json.find("\"message\":\"" + text + "\","), std::string::npos) << json;
  EXPECT_NE(json.find("\"output\":\"22:13:20.000000123: Warning " + text + "\","),
            std::string::npos)
      << json;
  EXPECT_NE(json.find("\"evt.arg.path\":\"/tmp/caf\xc3\xa9 "
                      "\\\"q\\\"\\u0009\\u001b[2J\xef\xbf\xbd\xef\xbf\xbd\""),
            std::string::npos)
      << json;
  // The text line is unchanged.
  EXPECT_EQ(AlertToText(alert), "22:13:20.000000123: Warning " + alert.output);
}

TEST(HostnameTest, FalcoHostnameOverridesTheHostsName) {
  unsetenv("FALCO_HOSTNAME");
  EXPECT_EQ(HostnameOverride(), std::nullopt);
  const std::string own = LocalHostname();
  setenv("FALCO_HOSTNAME", "node-7.example", 1);
  EXPECT_EQ(HostnameOverride(), "node-7.example");
  EXPECT_EQ(LocalHostname(), "node-7.example");
  unsetenv("FALCO_HOSTNAME");
  EXPECT_EQ(LocalHostname(), own);
}

}  // namespace
}  // namespace kestrel::engine::alerts
