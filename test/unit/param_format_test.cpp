// Values print as Falco prints them: the chmod family's modes and every
// flag word by name, open's mode as a number; the raw values stay readable.
#include "engine/output/param_format.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <string>
#include <vector>

#include "engine/decode/event_decoder.h"
#include "event_record_builder.h"
#include "shared/event_schema.h"

namespace kestrel::engine {
namespace {

using testing::EventRecord;
using testing::Str;

std::string Printed(const std::vector<uint8_t>& bytes, OutputStyle style) {
  absl::StatusOr<RecordView> view = RecordView::Parse(bytes.data(), bytes.size());
  EXPECT_TRUE(view.ok()) << view.status();
  absl::StatusOr<DecodedEvent> event = DecodedEvent::Decode(*view);
  EXPECT_TRUE(event.ok()) << event.status();
  std::string out;
  AppendParams(out, *event, style);
  return out;
}

constexpr char kSetuidRwxrXrX[] = "S_IXOTH|S_IROTH|S_IXGRP|S_IRGRP|S_IXUSR|S_IWUSR|S_IRUSR|S_ISUID";

TEST(ParamFormatTest, ChmodModePrintsAsFalcosNamesInText) {
  const auto bytes = EventRecord(KESTREL_EVT_CHMOD, {}, {{"res", 0}, {"mode", 04755}},
                                 {{"filename", Str("/usr/bin/x")}});
  EXPECT_EQ(Printed(bytes, OutputStyle::kText),
            std::string("res=0 filename=\"/usr/bin/x\" mode=") + kSetuidRwxrXrX);
}

TEST(ParamFormatTest, ChmodModePrintsAsFalcosNamesInJson) {
  const auto bytes =
      EventRecord(KESTREL_EVT_FCHMODAT, {}, {{"res", 0}, {"dirfd", 3}, {"mode", 0600}},
                  {{"filename", Str("f")}});
  EXPECT_EQ(Printed(bytes, OutputStyle::kJson),
            "\"res\":0,\"dirfd\":3,\"filename\":\"f\",\"mode\":\"S_IWUSR|S_IRUSR\"");
}

TEST(ParamFormatTest, ModeZeroAndUnnamedBits) {
  EXPECT_EQ(Printed(EventRecord(KESTREL_EVT_FCHMOD, {}, {{"res", 0}, {"fd", 4}, {"mode", 0}},
                                {{"path", Str("/f")}}),
                    OutputStyle::kText),
            "res=0 fd=4 mode=0 path=\"/f\"");
  // A file-type bit has no chmod name: it is appended in hex, as flags are.
  EXPECT_EQ(Printed(EventRecord(KESTREL_EVT_FCHMOD, {}, {{"res", 0}, {"fd", 4}, {"mode", 0100400}},
                                {{"path", Str("/f")}}),
                    OutputStyle::kText),
            "res=0 fd=4 mode=S_IRUSR|0x8000 path=\"/f\"");
}

TEST(ParamFormatTest, OpenFlagsByNameAndOpenModeAsANumber) {
  const auto bytes = EventRecord(
      KESTREL_EVT_OPENAT, {},
      {{"fd", 3}, {"dirfd", AT_FDCWD}, {"flags", O_RDONLY | O_CLOEXEC}, {"mode", 0}, {"dev", 0}},
      {{"name", Str("etc/passwd")}, {"path", Str("/etc/passwd")}});
  EXPECT_EQ(Printed(bytes, OutputStyle::kText),
            "fd=3 dirfd=AT_FDCWD name=\"etc/passwd\" flags=O_RDONLY|O_CLOEXEC mode=0 "
            "path=\"/etc/passwd\" dev=0 ino=0 open_facts=0");
  const auto created =
      EventRecord(KESTREL_EVT_OPEN, {},
                  {{"fd", 3},
                   {"flags", O_WRONLY | O_CREAT | O_TRUNC},
                   {"mode", 0640},
                   {"open_facts", KESTREL_OPEN_F_CREATED | KESTREL_OPEN_F_UPPER_LAYER}},
                  {{"name", Str("x")}, {"path", Str("/x")}});
  EXPECT_EQ(Printed(created, OutputStyle::kJson),
            "\"fd\":3,\"name\":\"x\",\"flags\":\"O_WRONLY|O_CREAT|O_TRUNC\",\"mode\":\"0640\","
            "\"path\":\"/x\",\"dev\":0,\"ino\":0,\"open_facts\":\"O_F_CREATED|FD_UPPER_LAYER\"");
}

TEST(ParamFormatTest, RawValuesStayNumbers) {
  const auto bytes = EventRecord(KESTREL_EVT_CHMOD, {}, {{"res", 0}, {"mode", 04755}},
                                 {{"filename", Str("/usr/bin/x")}});
  absl::StatusOr<RecordView> view = RecordView::Parse(bytes.data(), bytes.size());
  ASSERT_TRUE(view.ok());
  absl::StatusOr<DecodedEvent> event = DecodedEvent::Decode(*view);
  ASSERT_TRUE(event.ok());
  EXPECT_EQ(event->Int("mode"), 04755);
}

TEST(ParamFormatTest, CreatFlagsNameTheOverlayLayer) {
  const auto bytes =
      EventRecord(KESTREL_EVT_CREAT, {}, {{"fd", 3}, {"mode", 0600}, {"creat_flags", 1}},
                  {{"name", Str("x")}, {"path", Str("/x")}});
  const std::string text = Printed(bytes, OutputStyle::kText);
  EXPECT_NE(text.find(" creat_flags=FD_UPPER_LAYER_CREAT"), std::string::npos) << text;
}

}  // namespace
}  // namespace kestrel::engine
