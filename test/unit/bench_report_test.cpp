// The pieces of `kestrel bench` that need no kernel: option parsing, the
// statistics and the two output formats.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "bench/bench_options.h"
#include "bench/bench_report_printer.h"
#include "bench/bench_stats.h"

namespace kestrel::cli::bench {
namespace {

TEST(BenchOptionsTest, NoModeMeansEveryMode) {
  absl::StatusOr<BenchOptions> o = ParseBenchOptions({});
  ASSERT_TRUE(o.ok()) << o.status();
  EXPECT_EQ(o->modes,
            (std::vector<std::string>{"overhead", "throughput", "settings", "rings", "recorder"}));
  EXPECT_FALSE(o->json);
  EXPECT_EQ(o->repetitions, 5);
}

TEST(BenchOptionsTest, KeepsModeOrderDropsRepeatsAndReadsFlags) {
  absl::StatusOr<BenchOptions> o =
      ParseBenchOptions({"throughput", "--json", "overhead", "throughput", "--repetitions", "9"});
  ASSERT_TRUE(o.ok()) << o.status();
  EXPECT_EQ(o->modes, (std::vector<std::string>{"throughput", "overhead"}));
  EXPECT_TRUE(o->json);
  EXPECT_EQ(o->repetitions, 9);
}

TEST(BenchOptionsTest, RejectsBadInput) {
  EXPECT_FALSE(ParseBenchOptions({"engine"}).ok());
  EXPECT_FALSE(ParseBenchOptions({"--repetitions"}).ok());
  EXPECT_FALSE(ParseBenchOptions({"--repetitions", "0"}).ok());
  EXPECT_FALSE(ParseBenchOptions({"--repetitions", "x"}).ok());
  EXPECT_EQ(ParseBenchOptions({"--jsn"}).status().message(), "unknown mode or flag \"--jsn\"");
}

TEST(BenchStatsTest, MedianOfOddEvenAndEmpty) {
  EXPECT_DOUBLE_EQ(Median({5, 1, 3}), 3);
  EXPECT_DOUBLE_EQ(Median({4, 1, 3, 2}), 2.5);
  EXPECT_DOUBLE_EQ(Median({}), 0);
}

TEST(BenchStatsTest, PairedRatiosSkipNonPositiveDenominators) {
  EXPECT_EQ(PairedRatios({10, 20, 30}, {5, 0, -1}), (std::vector<double>{2}));
  EXPECT_EQ(PairedRatios({6, 9}, {3, 3, 3}), (std::vector<double>{2, 3}));
}

TEST(BenchStatsTest, VerdictSaysByHowMuchATargetIsMissed) {
  EXPECT_EQ(TargetVerdict(1.0, 1.1), "target met");
  EXPECT_EQ(TargetVerdict(1.65, 1.1), "target missed by 50%");
  EXPECT_EQ(TargetVerdict(4e6, 5e6, /*higher_is_better=*/true), "target missed by 20%");
  EXPECT_EQ(TargetVerdict(6e6, 5e6, /*higher_is_better=*/true), "target met");
}

BenchRow Plain(const std::string& name, double value, const std::string& unit) {
  BenchRow row;
  row.name = name;
  row.value = value;
  row.unit = unit;
  return row;
}

std::vector<BenchReport> SampleReports() {
  BenchReport r;
  r.mode = "overhead";
  r.rows.push_back(Plain("getppid: no probe", 167, "ns/iter"));
  r.rows.push_back({.name = "getppid: \"generic\"",
                    .value = 180.5,
                    .unit = "ns added/iter",
                    .ratio = 1.25,
                    .ratio_of = "floor",
                    .target = 1.3,
                    .note = "target met"});
  r.rows.push_back(Plain("not built", std::numeric_limits<double>::quiet_NaN(), "ns added/iter"));
  r.notes.push_back("machine: test");
  return {r};
}

TEST(BenchReportPrinterTest, JsonHasEveryFieldEscapedAndNoNaN) {
  EXPECT_EQ(FormatReportsAsJson(SampleReports()),
            "{\"reports\":[{\"mode\":\"overhead\",\"rows\":["
            "{\"name\":\"getppid: no probe\",\"value\":167,\"unit\":\"ns/iter\"},"
            "{\"name\":\"getppid: \\\"generic\\\"\",\"value\":180.5,\"unit\":\"ns added/iter\","
            "\"ratio\":1.25,\"ratio_of\":\"floor\",\"target\":1.3,\"note\":\"target met\"},"
            "{\"name\":\"not built\",\"value\":null,\"unit\":\"ns added/iter\"}],"
            "\"notes\":[\"machine: test\"]}]}\n");
}

TEST(BenchReportPrinterTest, TableShowsRatioTargetAndWhatTheRatioIsOf) {
  const std::string table = FormatReportsAsTable(SampleReports());
  EXPECT_NE(table.find("== overhead =="), std::string::npos);
  EXPECT_NE(table.find("1.25x"), std::string::npos);
  EXPECT_NE(table.find("ratio of \"floor\"; target met"), std::string::npos);
  EXPECT_NE(table.find("note: machine: test"), std::string::npos);
  // A value not measured prints as "-", never as nan.
  EXPECT_EQ(table.find("nan"), std::string::npos);
}

}  // namespace
}  // namespace kestrel::cli::bench
