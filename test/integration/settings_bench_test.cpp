// `kestrel bench settings` runs on the real probe and fills every row.
// Only the report's shape is checked: speeds belong to the benchmark.
#include <gtest/gtest.h>

#include <iostream>

#include "bench/settings_bench.h"
#include "probe_session.h"

namespace kestrel::testing {
namespace {

TEST(SettingsBenchTest, ReportHasEveryMeasurement) {
  KESTREL_REQUIRE_BPF_PRIVILEGES();
  absl::StatusOr<cli::bench::BenchReport> report = cli::bench::RunSettingsBench(1);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_EQ(report->mode, "settings");
  ASSERT_EQ(report->rows.size(), 8u);
  for (const cli::bench::BenchRow& row : report->rows) {
    std::cout << row.name << ": " << row.value << " " << row.unit;
    if (row.ratio) std::cout << " (x" << *row.ratio << " vs " << row.ratio_of << ")";
    std::cout << "\n";
    if (row.name.starts_with("ns added")) continue;  // noise can make it negative
    EXPECT_GT(row.value, 0) << row.name;
  }
  EXPECT_TRUE(report->rows[1].ratio.has_value());
  EXPECT_EQ(report->rows[1].target, 10);
  EXPECT_FALSE(report->notes.empty());
}

TEST(SettingsBenchTest, RefusesNoRepetitions) {
  EXPECT_FALSE(cli::bench::RunSettingsBench(0).ok());
}

}  // namespace
}  // namespace kestrel::testing
