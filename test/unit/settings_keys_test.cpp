#include "agent/probe/settings_keys.h"

#include <gtest/gtest.h>

#include <cstring>

namespace kestrel::cli {
namespace {

TEST(SettingsKeysTest, EveryKeyFormatsAndSetRoundTrips) {
  kestrel_capture_settings s{};
  const std::vector<std::string> assignments = {
      "snaplen=4096",       "drop_failed=true",      "dropping_mode=1",
      "sampling_ratio=7",   "capture_io_data=on",    "target_tgid=11",
      "target_tgids=12,13", "target_cgroups=99,100", "fullcapture_ports=8000-8080"};
  absl::StatusOr<kestrel_capture_settings> next = agent::ApplyAssignments(s, assignments);
  ASSERT_TRUE(next.ok()) << next.status();
  EXPECT_EQ(next->snaplen, 4096u);
  EXPECT_EQ(next->drop_failed, 1);
  EXPECT_EQ(next->dropping_mode, 1);
  EXPECT_EQ(next->sampling_ratio, 7u);
  EXPECT_EQ(next->capture_io_data, 1);
  EXPECT_EQ(next->target_tgid, 11u);
  EXPECT_EQ(next->target_tgids[0], 12u);
  EXPECT_EQ(next->target_tgids[1], 13u);
  EXPECT_EQ(next->target_tgids[2], 0u);
  EXPECT_EQ(next->target_cgroups[1], 100u);
  EXPECT_EQ(next->fullcapture_port_lo, 8000);
  EXPECT_EQ(next->fullcapture_port_hi, 8080);
  // What `get` prints, `set` accepts and reproduces.
  std::vector<std::string> printed;
  for (const std::string& key : agent::SettingKeys()) {
    if (key == "boot_time_ns" || key == "own_tgid") continue;
    absl::StatusOr<std::string> v = agent::FormatSetting(*next, key);
    ASSERT_TRUE(v.ok()) << key;
    printed.push_back(key + "=" + *v);
  }
  absl::StatusOr<kestrel_capture_settings> again = agent::ApplyAssignments(s, printed);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(std::memcmp(&*again, &*next, sizeof(s)), 0);
  EXPECT_EQ(*agent::FormatSetting(*next, "target_tgids"), "12,13");
  EXPECT_EQ(*agent::FormatSetting(s, "target_tgids"), "none");
  EXPECT_EQ(*agent::FormatSetting(s, "fullcapture_ports"), "none");
}

TEST(SettingsKeysTest, BadInputChangesNothingAndSaysWhy) {
  kestrel_capture_settings s{};
  s.snaplen = 80;
  const kestrel_capture_settings original = s;
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"snaplen=16385", "snaplen=16385: 16385 is above the maximum 16384"},
      {"snaplen=65537", "snaplen=65537: 65537 is above the maximum 16384"},
      {"snaplen=-1", "snaplen=-1: snaplen expects a number from 0 to 16384, not \"-1\""},
      {"snaplen=", "snaplen expects a number"},
      {"drop_failed=2", "drop_failed expects 0 or 1"},
      {"sampling_ratio=0", "sampling_ratio=0: 0 is below the minimum 1"},
      {"sampling_ratio=4294967296", "4294967296 is above the maximum 4294967295"},
      {"target_tgid=4194304", "4194304 is above the maximum 4194303"},
      {"target_tgids=1,2,3,4,5,6,7,8,9", "target_tgids holds up to 8 ids, not 9"},
      {"target_tgids=1,,2", "target_tgids expects up to 8 comma-separated ids"},
      {"target_tgids=4194304", "4194304 is above the maximum 4194303"},
      {"target_cgroups=0", "0 is below the minimum 1"},
      {"target_cgroups=1,2,3,4,5", "target_cgroups holds up to 4 ids, not 5"},
      {"fullcapture_ports=80", "LO-HI"},
      {"fullcapture_ports=90-80", "LO-HI"},
      {"fullcapture_ports=1-65536", "LO-HI"},
      {"fullcapture_ports=0-0", "LO-HI"},
      {"boot_time_ns=1", "boot_time_ns is read-only: the probe sets it at load"},
      {"own_tgid=1", "own_tgid is read-only: libpman sets it"},
      {"target_lists_set=1", "unknown setting \"target_lists_set\""},
      {"nope=1", "unknown setting \"nope\""},
      {"snaplen", "not KEY=VALUE"},
  };
  for (const auto& [arg, why] : bad) {
    absl::StatusOr<kestrel_capture_settings> r = agent::ApplyAssignments(s, {"snaplen=100", arg});
    ASSERT_FALSE(r.ok()) << arg;
    EXPECT_NE(r.status().message().find(why), std::string::npos) << r.status();
    EXPECT_NE(r.status().message().find("nothing was changed"), std::string::npos);
  }
  EXPECT_EQ(std::memcmp(&s, &original, sizeof(s)), 0);
}

// Every bound at both edges, through the keys `kestrel settings set` takes.
TEST(SettingsKeysTest, BoundsAreAcceptedUpToTheEdge) {
  const kestrel_capture_settings s{};
  absl::StatusOr<kestrel_capture_settings> next = agent::ApplyAssignments(
      s, {"snaplen=16384", "sampling_ratio=4294967295", "target_tgid=4194303",
          "target_tgids=1,2,3,4,5,6,7,4194303", "target_cgroups=1,2,3,18446744073709551615",
          "fullcapture_ports=0-65535", "drop_failed=1"});
  ASSERT_TRUE(next.ok()) << next.status();
  EXPECT_EQ(next->snaplen, 16384u);
  EXPECT_EQ(next->sampling_ratio, 4294967295u);
  EXPECT_EQ(next->target_tgid, 4194303u);
  EXPECT_EQ(next->target_tgids[7], 4194303u);
  EXPECT_EQ(next->target_cgroups[3], 18446744073709551615u);
  EXPECT_EQ(next->fullcapture_port_hi, 65535);
  next = agent::ApplyAssignments(
      *next, {"snaplen=0", "sampling_ratio=1", "target_tgid=0", "target_tgids=none",
              "target_cgroups=", "fullcapture_ports=1-1", "drop_failed=0"});
  ASSERT_TRUE(next.ok()) << next.status();
  EXPECT_EQ(next->snaplen, 0u);
  EXPECT_EQ(next->sampling_ratio, 1u);
  EXPECT_EQ(next->target_tgids[7], 0u);
  EXPECT_EQ(next->target_cgroups[3], 0u);
  EXPECT_EQ(*agent::FormatSetting(*next, "fullcapture_ports"), "1-1");
}

TEST(SettingsKeysTest, KeysAreTheTablesInItsOrder) {
  EXPECT_EQ(
      agent::SettingKeys(),
      (std::vector<std::string>{"boot_time_ns", "snaplen", "own_tgid", "target_tgid", "drop_failed",
                                "dropping_mode", "capture_io_data", "sampling_ratio",
                                "fullcapture_ports", "target_tgids", "target_cgroups"}));
}

}  // namespace
}  // namespace kestrel::cli
