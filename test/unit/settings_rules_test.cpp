// libpman's validation and defaults come from the settings table: every
// bound is checked at both edges.
#include "settings_rules.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "shared/settings_rows.h"

namespace kestrel::pman {
namespace {

bool Accepts(const kestrel_capture_settings& s) { return ValidateSettings(s).ok(); }

// The value each numeric row is set to while another row is under test:
// inside every bound.
kestrel_capture_settings Valid() {
  kestrel_capture_settings s = DefaultSettings();
  EXPECT_TRUE(Accepts(s)) << ValidateSettings(s);
  return s;
}

uint64_t TypeMax(const kestrel_setting_row& row) {
  return row.elem_size == 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * row.elem_size)) - 1;
}

TEST(SettingsRulesTest, DefaultsAreTheTablesAndValid) {
  const kestrel_capture_settings s = DefaultSettings();
  EXPECT_EQ(s.snaplen, 80u);
  EXPECT_EQ(s.sampling_ratio, 1u);
  EXPECT_EQ(s.drop_failed, 0);
  EXPECT_EQ(s.target_tgid, 0u);
  EXPECT_EQ(s.fullcapture_port_hi, 0);
  EXPECT_EQ(s.target_tgids[0], 0u);
  EXPECT_TRUE(Accepts(s));
}

TEST(SettingsRulesTest, SnaplenStopsAtWhatTheProbeKeeps) {
  EXPECT_EQ(KESTREL_MAX_SNAPLEN, 16384);
  kestrel_capture_settings s = Valid();
  s.snaplen = 0;
  EXPECT_TRUE(Accepts(s));
  s.snaplen = KESTREL_MAX_SNAPLEN;
  EXPECT_TRUE(Accepts(s));
  s.snaplen = KESTREL_MAX_SNAPLEN + 1;
  const absl::Status st = ValidateSettings(s);
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(st.message(), "snaplen 16385 is above the maximum 16384; nothing was changed");
}

// min, max, min-1 and max+1 of every numeric row, where the type can hold
// them.
TEST(SettingsRulesTest, EveryScalarRowIsCheckedAtBothEdges) {
  int checked = 0;
  for (const kestrel_setting_row& row : kestrel_setting_rows) {
    if (row.access == KESTREL_SETTING_DERIVED) continue;
    if (row.kind != KESTREL_SETTING_UINT && row.kind != KESTREL_SETTING_BOOL) continue;
    SCOPED_TRACE(row.key);
    kestrel_capture_settings s = Valid();
    kestrel_setting_put(&s, &row, 0, row.min);
    EXPECT_TRUE(Accepts(s)) << ValidateSettings(s);
    kestrel_setting_put(&s, &row, 0, row.max);
    EXPECT_TRUE(Accepts(s)) << ValidateSettings(s);
    if (row.max < TypeMax(row)) {
      kestrel_setting_put(&s, &row, 0, row.max + 1);
      const absl::Status st = ValidateSettings(s);
      EXPECT_FALSE(st.ok());
      EXPECT_NE(st.message().find(std::string(row.key) + " "), absl::string_view::npos) << st;
      EXPECT_NE(st.message().find("above the maximum"), absl::string_view::npos) << st;
    }
    if (row.min > 0) {
      kestrel_setting_put(&s, &row, 0, row.min - 1);
      // sampling_ratio 0 is the one below-minimum value accepted, and only
      // outside dropping mode (zeroed structs have always published).
      if (std::string(row.key) == "sampling_ratio") {
        EXPECT_TRUE(Accepts(s));
        s.dropping_mode = 1;
      }
      EXPECT_FALSE(Accepts(s));
    }
    ++checked;
  }
  EXPECT_EQ(checked, 8);  // boot_time_ns .. sampling_ratio, less target_lists_set
}

TEST(SettingsRulesTest, BoundsNamedByTheTable) {
  kestrel_capture_settings s = Valid();
  s.target_tgid = KESTREL_MAX_TGID;
  EXPECT_TRUE(Accepts(s));
  s.target_tgid = KESTREL_MAX_TGID + 1;
  EXPECT_EQ(ValidateSettings(s).message(),
            "target_tgid 4194304 is above the maximum 4194303; nothing was changed");
  s = Valid();
  s.drop_failed = 2;
  EXPECT_EQ(ValidateSettings(s).message(),
            "drop_failed 2 is above the maximum 1; nothing was changed");
  s = Valid();
  s.dropping_mode = 1;
  s.sampling_ratio = 0;
  EXPECT_EQ(ValidateSettings(s).message(),
            "sampling_ratio must be at least 1 in dropping mode; nothing was changed");
}

TEST(SettingsRulesTest, TargetListsHoldIdsWithinBoundsInEverySlot) {
  kestrel_capture_settings s = Valid();
  for (uint32_t& tgid : s.target_tgids) tgid = KESTREL_MAX_TGID;  // all slots full
  for (auto& cgroup : s.target_cgroups) cgroup = ~0ULL;
  EXPECT_TRUE(Accepts(s));
  s.target_tgids[KESTREL_MAX_TARGET_TGIDS - 1] = KESTREL_MAX_TGID + 1;
  EXPECT_EQ(ValidateSettings(s).message(),
            "target_tgids[7] 4194304 is above the maximum 4194303; nothing was changed");
  s.target_tgids[KESTREL_MAX_TARGET_TGIDS - 1] = 0;  // an unused slot
  EXPECT_TRUE(Accepts(s));
  EXPECT_EQ(sizeof(s.target_tgids) / sizeof(s.target_tgids[0]), 8u);
  EXPECT_EQ(sizeof(s.target_cgroups) / sizeof(s.target_cgroups[0]), 4u);
}

TEST(SettingsRulesTest, PortRangeIsOrdered) {
  kestrel_capture_settings s = Valid();
  s.fullcapture_port_lo = 0;
  s.fullcapture_port_hi = 65535;
  EXPECT_TRUE(Accepts(s));
  s.fullcapture_port_lo = 65535;
  EXPECT_TRUE(Accepts(s));
  s.fullcapture_port_hi = 65534;
  EXPECT_FALSE(Accepts(s));
  s.fullcapture_port_hi = 0;  // no range: lo is unused
  EXPECT_TRUE(Accepts(s));
}

TEST(SettingsRulesTest, DerivedRowsAreNotTheCallersToGetWrong) {
  kestrel_capture_settings s = Valid();
  s.target_lists_set = 7;  // recomputed at publish
  EXPECT_TRUE(Accepts(s));
}

// Each row's offset and width are those of its struct member.
TEST(SettingsRulesTest, RowsMapOntoTheirMembers) {
  kestrel_capture_settings s{};
  std::memset(&s, 0, sizeof(s));
  const auto row = [](const char* key) -> const kestrel_setting_row& {
    for (const kestrel_setting_row& r : kestrel_setting_rows) {
      if (std::string(r.key) == key) return r;
    }
    ADD_FAILURE() << key;
    return kestrel_setting_rows[0];
  };
  kestrel_setting_put(&s, &row("snaplen"), 0, 1234);
  kestrel_setting_put(&s, &row("fullcapture_ports"), 1, 8080);
  kestrel_setting_put(&s, &row("target_cgroups"), 3, ~uint64_t{0});
  kestrel_setting_put(&s, &row("capture_io_data"), 0, 1);
  EXPECT_EQ(s.snaplen, 1234u);
  EXPECT_EQ(s.fullcapture_port_hi, 8080);
  EXPECT_EQ(s.target_cgroups[3], ~uint64_t{0});
  EXPECT_EQ(s.capture_io_data, 1);
  EXPECT_EQ(kestrel_setting_get(&s, &row("fullcapture_ports"), 1), 8080u);
  EXPECT_EQ(KESTREL_SETTING_ROWS, 12u);
}

}  // namespace
}  // namespace kestrel::pman
