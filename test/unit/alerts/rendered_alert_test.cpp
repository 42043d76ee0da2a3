// An output string rendered by the real fields layer for a synthetic event
// (cat opening /etc/passwd, from the fields tests' traced system), then
// written as Falco's JSON alert: every value checked exactly.
#include <fcntl.h>
#include <gtest/gtest.h>

#include "../../support/json_value.h"
#include "engine/alerts/alert.h"
#include "engine/alerts/output_format.h"
#include "fields/synthetic_system.h"

namespace kestrel::engine::alerts {
namespace {

using ::kestrel::testing::CatRecord;
using ::kestrel::testing::JsonValue;
using ::kestrel::testing::ReturnName;
using ::kestrel::testing::Str;

constexpr std::string_view kOutput =
    "Sensitive file opened for reading (file=%fd.name flags=%evt.arg.flags process=%proc.name "
    "pid=%proc.pid parent=%proc.pname gparent=%proc.aname[2] user=%user.name "
    "command=%proc.cmdline res=%evt.res failed=%evt.failed container=%container.id "
    "buffer=%evt.buffer)";

class RenderedAlertTest : public ::testing::Test {
 protected:
  void OpenEtcPasswd(std::string_view path) {
    sys_.SetEvent(CatRecord(KESTREL_EVT_OPENAT,
                            {{ReturnName(KESTREL_EVT_OPENAT), 3},
                             {"dirfd", AT_FDCWD},
                             {"flags", O_RDONLY | O_CLOEXEC},
                             {"mode", 0}},
                            {{"path", Str(path)}}));
  }

  testing::SyntheticSystem sys_;
};

TEST_F(RenderedAlertTest, FalcoStyleOutputFromRealFields) {
  absl::StatusOr<OutputFormat> format = OutputFormat::Compile(kOutput, sys_.registry());
  ASSERT_TRUE(format.ok()) << format.status();
  OpenEtcPasswd("/etc/passwd");

  Alert alert;
  alert.time_ns = testing::kBootTimeNs + 1'000'000'000;
  alert.rule = "Read sensitive file untrusted";
  alert.priority = rules::Priority::kWarning;
  alert.tags = {"filesystem"};
  alert.hostname = "h";
  format->Render(sys_.extractor(), alert.output, alert.output_fields);
  EXPECT_EQ(alert.output,
            "Sensitive file opened for reading (file=/etc/passwd flags=O_RDONLY|O_CLOEXEC "
            "process=cat pid=300 parent=bash gparent=sshd user=alice command=cat passwd -n "
            "res=SUCCESS failed=false container=host buffer=<NA>)");

  std::optional<JsonValue> v = JsonValue::Parse(AlertToJson(alert, JsonOptions{}));
  ASSERT_TRUE(v.has_value());
  const JsonValue& f = *v->Find("output_fields");
  EXPECT_EQ(f.Keys(), (std::vector<std::string>{"container.id", "evt.arg.flags", "evt.buffer",
                                                "evt.failed", "evt.res", "evt.time", "fd.name",
                                                "proc.aname[2]", "proc.cmdline", "proc.name",
                                                "proc.pid", "proc.pname", "user.name"}));
  EXPECT_EQ(f.Find("fd.name")->text, "/etc/passwd");
  EXPECT_EQ(f.Find("proc.pid")->kind, JsonValue::Kind::kNumber);
  EXPECT_EQ(f.Find("proc.pid")->text, "300");
  EXPECT_EQ(f.Find("evt.failed")->kind, JsonValue::Kind::kBool);
  EXPECT_EQ(f.Find("evt.buffer")->kind, JsonValue::Kind::kNull);
  EXPECT_EQ(f.Find("evt.time")->text, "1700000001000000000");
  EXPECT_EQ(v->Find("time")->text, "2023-11-14T22:13:21.000000000Z");
}

TEST_F(RenderedAlertTest, HostilePathIsEscapedInTheLineAndExactInJson) {
  absl::StatusOr<OutputFormat> format =
      OutputFormat::Compile("opened %evt.arg.path by %proc.name", sys_.registry());
  ASSERT_TRUE(format.ok()) << format.status();
  const std::string hostile = "/tmp/\x1b]0;pwned\x07\nFAKE ALERT";
  OpenEtcPasswd(hostile);
  Alert alert;
  format->Render(sys_.extractor(), alert.output, alert.output_fields);
  EXPECT_EQ(alert.output, "opened /tmp/\\x1b]0;pwned\\x07\\x0aFAKE ALERT by cat");
  std::optional<JsonValue> v = JsonValue::Parse(AlertToJson(alert, JsonOptions{}));
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(v->Find("output_fields")->Find("evt.arg.path")->text, hostile);
}

}  // namespace
}  // namespace kestrel::engine::alerts
