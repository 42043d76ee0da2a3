// `kestrel bench soak`, the short version CI runs: `kestrel run` with the
// default rules under load for 60 s. Every row is there, and the one exact
// figure, the record accounting, adds up. RSS and rates are reported,
// never asserted on.
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "absl/strings/match.h"
#include "kestrel_process.h"

namespace kestrel::e2e {
namespace {

TEST(BenchSoakTest, AMinuteUnderLoadAccountsForEveryRecord) {
  const CliResult r =
      RunKestrel({"bench", "soak", "--duration", "60s", "--json"}, std::chrono::seconds(240));
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  ASSERT_TRUE(absl::StartsWith(r.out, "{\"reports\":[{\"mode\":\"soak\",\"rows\":[")) << r.out;
  for (const char* row : {"kestrel run RSS, start (median of the first samples)",
                          "kestrel run RSS, plateau window (median)",
                          "RSS spread in the plateau window ((max - min) / median)",
                          "thread table, largest size seen", "events evaluated per second (median)",
                          "events evaluated", "records dropped", "alerts"}) {
    EXPECT_TRUE(absl::StrContains(r.out, std::string("\"name\":\"") + row + "\"")) << row;
  }
  EXPECT_TRUE(absl::StrContains(
      r.out, "{\"name\":\"records attempted - (consumed + left unread + dropped)\",\"value\":0,"))
      << r.out;
}

TEST(BenchSoakTest, ABadDurationIsOneLineAndExit2) {
  const CliResult r = RunKestrel({"bench", "soak", "--duration", "soon"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(absl::StrContains(r.err, "--duration")) << r.err;
}

}  // namespace
}  // namespace kestrel::e2e
