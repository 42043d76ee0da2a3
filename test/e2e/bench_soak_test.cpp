// `kestrel bench soak`, the short version CI runs: `kestrel run` with the
// default rules under load for 60 s, its rules reloaded every 5 s and once
// broken, its file output on /dev/full. Every row is there, and the exact
// figures hold: the record accounting adds up, reloads fail only while the
// file is broken (and the rules loaded before keep alerting), and every
// alert fails on the full disk, by cause. RSS and rates are reported, never
// asserted on.
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "absl/strings/match.h"
#include "kestrel_process.h"

namespace kestrel::e2e {
namespace {

// The JSON object of the row named `name` in a report, empty if none.
std::string RowJson(const std::string& out, const std::string& name) {
  const size_t at = out.find("{\"name\":\"" + name + "\"");
  if (at == std::string::npos) return "";
  return out.substr(at, out.find('}', at) + 1 - at);
}

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

  const std::string reloads =
      RowJson(r.out, "rules reloads done (SIGHUP every 5 s, and the watcher's)");
  ASSERT_FALSE(reloads.empty()) << r.out;
  EXPECT_FALSE(absl::StrContains(reloads, "\"value\":0,")) << reloads;
  for (const char* judged : {"rules reloads refused while the rules file was broken",
                             "rules reloads with an unexpected outcome",
                             "alert deliveries failed on the file output (/dev/full)"}) {
    const std::string row = RowJson(r.out, judged);
    EXPECT_TRUE(absl::StrContains(row, "\"met\":true")) << judged << ": " << r.out;
  }
  EXPECT_TRUE(
      absl::StrContains(RowJson(r.out, "alert deliveries failed on the file output (/dev/full)"),
                        "(write error: No space left on device "))
      << r.out;
}

TEST(BenchSoakTest, ABadDurationIsOneLineAndExit2) {
  const CliResult r = RunKestrel({"bench", "soak", "--duration", "soon"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(absl::StrContains(r.err, "--duration")) << r.err;
}

}  // namespace
}  // namespace kestrel::e2e
