// Alerts as Falco writes them: the text line, and the JSON object parsed
// back key by key (order, types, nulls, escaping of any bytes).
#include <gtest/gtest.h>
#include <stdlib.h>
#include <time.h>

#include <string>

#include "../../support/json_value.h"
#include "../../support/strict_json.h"
#include "engine/alerts/alert.h"

namespace kestrel::engine::alerts {
namespace {

using ::kestrel::testing::JsonValue;
using ::kestrel::testing::StrictJson;

// 2023-11-14T22:13:20.000000123Z: nanoseconds that need their zeros.
constexpr uint64_t kTime = 1700000000000000123ull;

class AlertFormatTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // evt.time is local time: pin the zone so the line is exact.
    setenv("TZ", "UTC", 1);
    tzset();
    alert_.time_ns = kTime;
    alert_.rule = "Read sensitive file untrusted";
    alert_.priority = rules::Priority::kWarning;
    alert_.source = "syscall";
    alert_.output = "Sensitive file opened (file=/etc/shadow proc=cat)";
    alert_.output_fields = {
        {"fd.name", "/etc/shadow", FieldJsonKind::kString},
        {"proc.pid", "4242", FieldJsonKind::kNumber},
        {"evt.res", "-2", FieldJsonKind::kNumber},
        {"fd.connected", "false", FieldJsonKind::kBool},
        {"proc.aname[2]", std::nullopt, FieldJsonKind::kString},
    };
    alert_.tags = {"mitre_credential_access", "filesystem", "T1555", "filesystem"};
    alert_.hostname = "host-1";
  }

  JsonValue Parse(const std::string& json) {
    EXPECT_EQ(StrictJson::Check(json), "") << json;
    std::optional<JsonValue> v = JsonValue::Parse(json);
    EXPECT_TRUE(v.has_value()) << json;
    return v ? *v : JsonValue{};
  }

  Alert alert_;
};

TEST_F(AlertFormatTest, TextLineIsTimePriorityOutput) {
  EXPECT_EQ(AlertToText(alert_),
            "22:13:20.000000123: Warning Sensitive file opened (file=/etc/shadow proc=cat)");
  alert_.priority = rules::Priority::kInformational;
  EXPECT_EQ(AlertToText(alert_).substr(0, 34), "22:13:20.000000123: Informational ");
}

TEST_F(AlertFormatTest, TextLineWithIso8601Time) {
  EXPECT_EQ(AlertToText(alert_, true),
            "2023-11-14T22:13:20.000000123Z: Warning Sensitive file opened (file=/etc/shadow "
            "proc=cat)");
  JsonOptions options;
  options.time_format_iso_8601 = true;
  const JsonValue v = Parse(AlertToJson(alert_, options));
  EXPECT_EQ(v.Find("output")->text, AlertToText(alert_, true));
}

TEST_F(AlertFormatTest, Rfc3339IsUtcWithNanoseconds) {
  EXPECT_EQ(Rfc3339Utc(kTime), "2023-11-14T22:13:20.000000123Z");
  EXPECT_EQ(Rfc3339Utc(0), "1970-01-01T00:00:00.000000000Z");
}

TEST_F(AlertFormatTest, JsonHasFalcosKeysInFalcosOrder) {
  const JsonValue v = Parse(AlertToJson(alert_, JsonOptions{}));
  ASSERT_EQ(v.kind, JsonValue::Kind::kObject);
  EXPECT_EQ(v.Keys(), (std::vector<std::string>{"hostname", "output", "output_fields", "priority",
                                                "rule", "source", "tags", "time"}));
  EXPECT_EQ(v.Find("hostname")->text, "host-1");
  EXPECT_EQ(v.Find("output")->text,
            "22:13:20.000000123: Warning Sensitive file opened (file=/etc/shadow proc=cat)");
  EXPECT_EQ(v.Find("priority")->text, "Warning");
  EXPECT_EQ(v.Find("rule")->text, "Read sensitive file untrusted");
  EXPECT_EQ(v.Find("source")->text, "syscall");
  EXPECT_EQ(v.Find("time")->text, "2023-11-14T22:13:20.000000123Z");

  const JsonValue& tags = *v.Find("tags");
  ASSERT_EQ(tags.kind, JsonValue::Kind::kArray);
  std::vector<std::string> tag_texts;
  for (const JsonValue& t : tags.items) tag_texts.push_back(t.text);
  EXPECT_EQ(tag_texts,
            (std::vector<std::string>{"T1555", "filesystem", "mitre_credential_access"}));
}

TEST_F(AlertFormatTest, JsonOutputFieldsAreTypedSortedWithEventTime) {
  const JsonValue v = Parse(AlertToJson(alert_, JsonOptions{}));
  const JsonValue& f = *v.Find("output_fields");
  ASSERT_EQ(f.kind, JsonValue::Kind::kObject);
  EXPECT_EQ(f.Keys(), (std::vector<std::string>{"evt.res", "evt.time", "fd.connected", "fd.name",
                                                "proc.aname[2]", "proc.pid"}));
  EXPECT_EQ(f.Find("evt.time")->kind, JsonValue::Kind::kNumber);
  EXPECT_EQ(f.Find("evt.time")->text, "1700000000000000123");
  EXPECT_EQ(f.Find("evt.res")->kind, JsonValue::Kind::kNumber);
  EXPECT_EQ(f.Find("evt.res")->text, "-2");
  EXPECT_EQ(f.Find("proc.pid")->text, "4242");
  EXPECT_EQ(f.Find("fd.connected")->kind, JsonValue::Kind::kBool);
  EXPECT_FALSE(f.Find("fd.connected")->boolean);
  EXPECT_EQ(f.Find("fd.name")->kind, JsonValue::Kind::kString);
  EXPECT_EQ(f.Find("fd.name")->text, "/etc/shadow");
  EXPECT_EQ(f.Find("proc.aname[2]")->kind, JsonValue::Kind::kNull);
}

// proc.fdusage prints one decimal, as Falco's doubles: a bare JSON number.
TEST_F(AlertFormatTest, ADecimalIsABareNumberAndNothingElseIs) {
  alert_.output_fields = {{"proc.fdusage", "12.5", FieldJsonKind::kNumber},
                          {"a", "12.", FieldJsonKind::kNumber},
                          {"b", ".5", FieldJsonKind::kNumber},
                          {"c", "1.2.3", FieldJsonKind::kNumber}};
  const JsonValue v = Parse(AlertToJson(alert_, JsonOptions{}));
  const JsonValue& f = *v.Find("output_fields");
  EXPECT_EQ(f.Find("proc.fdusage")->kind, JsonValue::Kind::kNumber);
  EXPECT_EQ(f.Find("proc.fdusage")->text, "12.5");
  for (const char* quoted : {"a", "b", "c"}) {
    EXPECT_EQ(f.Find(quoted)->kind, JsonValue::Kind::kString) << quoted;
  }
}

TEST_F(AlertFormatTest, EventTimeFieldIsTheNumberEvenWhenTheRuleNamesIt) {
  alert_.output_fields.push_back({"evt.time", "22:13:20.000000123", FieldJsonKind::kString});
  const JsonValue v = Parse(AlertToJson(alert_, JsonOptions{}));
  const JsonValue* t = v.Find("output_fields")->Find("evt.time");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->kind, JsonValue::Kind::kNumber);
  EXPECT_EQ(t->text, "1700000000000000123");
  EXPECT_EQ(v.Find("output_fields")->Keys().size(), 6u);
}

TEST_F(AlertFormatTest, JsonOptionsLeaveOutOutputTagsAndFields) {
  const JsonValue v = Parse(AlertToJson(alert_, JsonOptions{false, false, false}));
  EXPECT_EQ(v.Keys(), (std::vector<std::string>{"hostname", "priority", "rule", "source", "time"}));
  const JsonValue w = Parse(AlertToJson(alert_, JsonOptions{true, false, true}));
  EXPECT_EQ(w.Find("tags"), nullptr);
  EXPECT_NE(w.Find("output"), nullptr);
}

TEST_F(AlertFormatTest, JsonIsValidForAnyBytesAndDecodesBack) {
  const std::string utf8_hostile = "caf\xc3\xa9 \x1b[2J\n\t\"quoted\" back\\slash \xe2\x80\xa8";
  alert_.output_fields = {{"proc.cmdline", utf8_hostile, FieldJsonKind::kString},
                          {"proc.name", std::string("a\0b\xff\x80", 5), FieldJsonKind::kString},
                          {"proc.pid", "not a number", FieldJsonKind::kNumber}};
  alert_.rule = "rule \"quoted\"";
  alert_.tags = {"t\n1"};
  const JsonValue v = Parse(AlertToJson(alert_, JsonOptions{}));
  const JsonValue& f = *v.Find("output_fields");
  EXPECT_EQ(f.Find("proc.cmdline")->text, utf8_hostile);
  // Bytes that are not UTF-8 come back as U+FFFD, one for each.
  EXPECT_EQ(f.Find("proc.name")->text, std::string("a\0b\xef\xbf\xbd\xef\xbf\xbd", 9));
  // A number field whose text is not a number is still valid JSON.
  EXPECT_EQ(f.Find("proc.pid")->kind, JsonValue::Kind::kString);
  EXPECT_EQ(v.Find("rule")->text, "rule \"quoted\"");
  EXPECT_EQ(v.Find("tags")->items.at(0).text, "t\n1");
}

}  // namespace
}  // namespace kestrel::engine::alerts
