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
  absl::StatusOr<bench::BenchReport> report = bench::RunSettingsBench(1);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_EQ(report->mode, "settings");
  // Seven rows per storage mode, then six array/bss ratios.
  ASSERT_EQ(report->rows.size(), 20u);
  int mmap_rows = 0;
  for (const bench::BenchRow& row : report->rows) {
    std::cout << row.name << ": " << row.value << " " << row.unit;
    if (row.ratio) std::cout << " (x" << *row.ratio << " vs " << row.ratio_of << ")";
    std::cout << "\n";
    if (row.name.starts_with("ns added")) continue;  // noise can make it negative
    if (row.name.starts_with("array / bss: ns added")) continue;
    EXPECT_GT(row.value, 0) << row.name;
    if (row.name.starts_with("settings change via mmap store")) {
      ++mmap_rows;
      EXPECT_TRUE(row.ratio.has_value());
      EXPECT_EQ(row.target, 10);
      // Judged like every row with a target: the verdict is in --json too.
      ASSERT_TRUE(row.met.has_value()) << row.name;
      EXPECT_EQ(*row.met, *row.ratio >= 10) << row.name;
    }
  }
  EXPECT_EQ(mmap_rows, 2);
  EXPECT_EQ(report->rows[0].name, "settings change via bpf_map_update_elem (bss)");
  EXPECT_EQ(report->rows[7].name, "settings change via bpf_map_update_elem (array)");
  EXPECT_FALSE(report->notes.empty());
}

TEST(SettingsBenchTest, RefusesNoRepetitions) { EXPECT_FALSE(bench::RunSettingsBench(0).ok()); }

}  // namespace
}  // namespace kestrel::testing
