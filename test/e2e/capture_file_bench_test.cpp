// `kestrel bench capture-file`, a short real run: every row the issue asks
// for is there, with its unit, and the judged rows carry a verdict.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "kestrel_process.h"

namespace kestrel::e2e {
namespace {

TEST(CaptureFileBenchTest, ShortRunHasTheWriterReaderAndSizeRows) {
  const CliResult r =
      RunKestrel({"bench", "capture-file", "--json", "--repetitions", "1", "--records", "20000"},
                 std::chrono::seconds(240));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  ASSERT_TRUE(absl::StartsWith(r.out, "{\"reports\":[{\"mode\":\"capture-file\",\"rows\":["))
      << r.out;
  const auto has_row = [&](const std::string& name, const std::string& unit) {
    return absl::StrContains(r.out, "\"name\":\"" + name + "\"") &&
           absl::StrContains(r.out, "\"unit\":\"" + unit + "\"");
  };
  EXPECT_TRUE(has_row("getppid, printing to /dev/null: highest zero-drop rate", "events/s"))
      << r.out;
  EXPECT_TRUE(
      has_row("getppid, writing a capture file (-w, zstd 1): highest zero-drop rate", "events/s"))
      << r.out;
  for (const char* level : {"stored", "zstd level 1", "zstd level 3"}) {
    const std::string prefix = std::string("capture file, ") + level;
    EXPECT_TRUE(has_row(prefix + ": bytes per record", "bytes/record")) << r.out;
    EXPECT_TRUE(has_row(prefix + ": write rate, one core", "records/s")) << r.out;
    EXPECT_TRUE(has_row(prefix + ": read rate (decompress + iterate), one core", "records/s"))
        << r.out;
  }
  // The writer's ratio (0.9) and the default level's read rate (20 M/s).
  EXPECT_TRUE(absl::StrContains(r.out, "\"target\":0.9")) << r.out;
  EXPECT_TRUE(absl::StrContains(r.out, "\"target\":2e+07")) << r.out;
}

}  // namespace
}  // namespace kestrel::e2e
