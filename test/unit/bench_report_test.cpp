// The pieces of `kestrel bench` that need no kernel: option parsing, the
// statistics and the two output formats.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bench/bench_report_printer.h"
#include "bench/bench_stats.h"
#include "bench/record_tally.h"
#include "bench/syscall_loop.h"
#include "kestrel/bench/bench_options.h"

namespace kestrel::bench {
namespace {

using cli::AllBenchModes;
using cli::BenchOptions;
using cli::MakeBenchApp;

// Parses the words after `kestrel bench` as the verb does; nullopt for a
// usage error.
std::optional<BenchOptions> Parse(std::vector<std::string> args) {
  BenchOptions options;
  std::unique_ptr<CLI::App> app = MakeBenchApp(options);
  std::reverse(args.begin(), args.end());  // CLI11 takes them last-first
  try {
    app->parse(args);
  } catch (const CLI::ParseError&) {
    return std::nullopt;
  }
  return options;
}

TEST(BenchOptionsTest, NoModeMeansEveryMode) {
  const std::optional<BenchOptions> o = Parse({});
  ASSERT_TRUE(o.has_value());
  EXPECT_EQ(o->modes, (std::vector<std::string>{"overhead", "throughput", "settings", "rings",
                                                "recorder", "engine", "capture-file", "startup"}));
  EXPECT_EQ(o->modes, AllBenchModes());
  EXPECT_FALSE(o->json);
  EXPECT_EQ(o->repetitions, 5);
}

TEST(BenchOptionsTest, KeepsModeOrderDropsRepeatsAndReadsFlagsAfterAMode) {
  const std::optional<BenchOptions> o =
      Parse({"throughput", "--json", "overhead", "throughput", "--repetitions", "9"});
  ASSERT_TRUE(o.has_value());
  EXPECT_EQ(o->modes, (std::vector<std::string>{"throughput", "overhead"}));
  EXPECT_TRUE(o->json);
  EXPECT_EQ(o->repetitions, 9);
}

TEST(BenchOptionsTest, AllAddsTheModesNotNamedYet) {
  const std::optional<BenchOptions> o = Parse({"--repetitions", "1", "rings", "all"});
  ASSERT_TRUE(o.has_value());
  EXPECT_EQ(o->modes, (std::vector<std::string>{"rings", "overhead", "throughput", "settings",
                                                "recorder", "engine", "capture-file", "startup"}));
  EXPECT_EQ(o->repetitions, 1);
  EXPECT_TRUE(o->engine_state);  // `all` measures the engine with its state
}

TEST(BenchOptionsTest, OverheadTakesTheRulesWhoseSetItLoads) {
  const std::optional<BenchOptions> o = Parse({"overhead", "--rules", "/etc/hostname"});
  ASSERT_TRUE(o.has_value());
  EXPECT_EQ(o->modes, (std::vector<std::string>{"overhead"}));
  EXPECT_EQ(o->overhead_rules_file, "/etc/hostname");
  EXPECT_FALSE(Parse({"overhead", "--rules", "/nonexistent/rules.yaml"}).has_value());
}

TEST(BenchOptionsTest, EngineTakesStateAndEvents) {
  const std::optional<BenchOptions> o = Parse({"engine", "--state", "--events", "50000"});
  ASSERT_TRUE(o.has_value());
  EXPECT_EQ(o->modes, (std::vector<std::string>{"engine"}));
  EXPECT_TRUE(o->engine_state);
  EXPECT_EQ(o->engine_events, 50000u);
}

TEST(BenchOptionsTest, RejectsBadInput) {
  EXPECT_FALSE(Parse({"engines"}).has_value());
  EXPECT_FALSE(Parse({"settings", "engines"}).has_value());
  EXPECT_FALSE(Parse({"settings", "--state"}).has_value());  // an engine flag
  EXPECT_FALSE(Parse({"engine", "--events", "10"}).has_value());
  EXPECT_FALSE(Parse({"--repetitions"}).has_value());
  EXPECT_FALSE(Parse({"--repetitions", "0"}).has_value());
  EXPECT_FALSE(Parse({"--repetitions", "1001"}).has_value());
  EXPECT_FALSE(Parse({"--repetitions", "x"}).has_value());
  EXPECT_FALSE(Parse({"--jsn"}).has_value());
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

TEST(BenchStatsTest, JudgeSetsTargetVerdictAndMiss) {
  BenchRow row;
  EXPECT_EQ(Judge(row, 1.65, 1.1), "target missed by 50%");
  EXPECT_EQ(row.target, 1.1);
  EXPECT_EQ(row.met, false);
  EXPECT_DOUBLE_EQ(row.missed_by_pct, 50);
  EXPECT_EQ(Judge(row, 6e6, 5e6, /*higher_is_better=*/true), "target met");
  EXPECT_EQ(row.met, true);
  EXPECT_DOUBLE_EQ(row.missed_by_pct, 0);
}

TEST(RecordTallyTest, SortsRecordsByKindAndAddsUpMarkedLosses) {
  RecordTally tally;
  kestrel_generic_record getppid{};
  getppid.hdr.type = KESTREL_EVT_GENERIC_SYSCALL;
  getppid.syscall_id = kGetppidId;
  kestrel_generic_record getpid = getppid;
  getpid.syscall_id = 39;
  kestrel_drop_marker_record marker{};
  marker.hdr.type = KESTREL_EVT_DROP_MARKER;
  marker.lost = 7;
  kestrel_record_header openat{};
  openat.type = KESTREL_EVT_OPENAT;
  kestrel_record_header openat_no_filler = openat;
  openat_no_filler.flags = KESTREL_RECORD_PARAMS_MISSING;
  kestrel_record_header settings{};
  settings.type = KESTREL_EVT_SETTINGS_CHANGED;

  for (const kestrel_record_header* h : {&getppid.hdr, &getppid.hdr, &getpid.hdr, &marker.hdr,
                                         &marker.hdr, &openat, &openat_no_filler, &settings}) {
    tally.Add(*h, kGetppidId);
  }
  EXPECT_EQ(tally.load_records, 2u);
  EXPECT_EQ(tally.specific_records, 2u);
  EXPECT_EQ(tally.params_missing, 1u);
  EXPECT_EQ(tally.other_records, 2u);  // getpid's generic record and the settings change
  EXPECT_EQ(tally.markers, 2u);
  EXPECT_EQ(tally.marked_lost, 14u);
  EXPECT_EQ(tally.records(), 6u);

  const RecordTally before = tally;
  tally.Add(marker.hdr, kGetppidId);
  const RecordTally delta = tally - before;
  EXPECT_EQ(delta.markers, 1u);
  EXPECT_EQ(delta.marked_lost, 7u);
  EXPECT_EQ(delta.records(), 0u);
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
  BenchRow missed = Plain("rate", 4e6, "events/s");
  missed.note = Judge(missed, 4e6, 5e6, /*higher_is_better=*/true);
  r.rows.push_back(missed);
  r.notes.push_back("machine: test");
  return {r};
}

TEST(BenchReportPrinterTest, JsonHasEveryFieldEscapedAndNoNaN) {
  EXPECT_EQ(FormatReportsAsJson(SampleReports()),
            "{\"reports\":[{\"mode\":\"overhead\",\"rows\":["
            "{\"name\":\"getppid: no probe\",\"value\":167,\"unit\":\"ns/iter\"},"
            "{\"name\":\"getppid: \\\"generic\\\"\",\"value\":180.5,\"unit\":\"ns added/iter\","
            "\"ratio\":1.25,\"ratio_of\":\"floor\",\"target\":1.3,\"note\":\"target met\"},"
            "{\"name\":\"not built\",\"value\":null,\"unit\":\"ns added/iter\"},"
            "{\"name\":\"rate\",\"value\":4e+06,\"unit\":\"events/s\",\"target\":5e+06,"
            "\"met\":false,\"missed_by_pct\":20,\"note\":\"target missed by 20%\"}],"
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
}  // namespace kestrel::bench
