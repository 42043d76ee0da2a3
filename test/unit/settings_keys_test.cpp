#include "settings_keys.h"

#include <gtest/gtest.h>

#include <cstring>

namespace kestrel::cli {
namespace {

TEST(SettingsKeysTest, EveryKeyFormatsAndSetRoundTrips) {
  kestrel_capture_settings s{};
  const std::vector<std::string> assignments = {
      "snaplen=4096",       "drop_failed=true",      "dropping_mode=1",
      "sampling_ratio=7",   "own_tgid=10",           "target_tgid=11",
      "target_tgids=12,13", "target_cgroups=99,100", "fullcapture_ports=8000-8080"};
  absl::StatusOr<kestrel_capture_settings> next = ApplyAssignments(s, assignments);
  ASSERT_TRUE(next.ok()) << next.status();
  EXPECT_EQ(next->snaplen, 4096u);
  EXPECT_EQ(next->drop_failed, 1);
  EXPECT_EQ(next->dropping_mode, 1);
  EXPECT_EQ(next->sampling_ratio, 7u);
  EXPECT_EQ(next->own_tgid, 10u);
  EXPECT_EQ(next->target_tgid, 11u);
  EXPECT_EQ(next->target_tgids[0], 12u);
  EXPECT_EQ(next->target_tgids[1], 13u);
  EXPECT_EQ(next->target_tgids[2], 0u);
  EXPECT_EQ(next->target_cgroups[1], 100u);
  EXPECT_EQ(next->fullcapture_port_lo, 8000);
  EXPECT_EQ(next->fullcapture_port_hi, 8080);
  // What `get` prints, `set` accepts and reproduces.
  std::vector<std::string> printed;
  for (const std::string& key : SettingKeys()) {
    if (key == "boot_time_ns") continue;
    absl::StatusOr<std::string> v = FormatSetting(*next, key);
    ASSERT_TRUE(v.ok()) << key;
    printed.push_back(key + "=" + *v);
  }
  absl::StatusOr<kestrel_capture_settings> again = ApplyAssignments(s, printed);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(std::memcmp(&*again, &*next, sizeof(s)), 0);
  EXPECT_EQ(*FormatSetting(*next, "target_tgids"), "12,13");
  EXPECT_EQ(*FormatSetting(s, "target_tgids"), "none");
  EXPECT_EQ(*FormatSetting(s, "fullcapture_ports"), "none");
}

TEST(SettingsKeysTest, BadInputChangesNothingAndSaysWhy) {
  kestrel_capture_settings s{};
  s.snaplen = 80;
  const kestrel_capture_settings original = s;
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"snaplen=65537", "snaplen"},
      {"snaplen=-1", "snaplen"},
      {"drop_failed=2", "0 or 1"},
      {"sampling_ratio=0", "N >= 1"},
      {"target_tgids=1,2,3,4,5,6,7,8,9", "up to 8"},
      {"target_tgids=1,,2", "process ids"},
      {"target_cgroups=0", "cgroup ids"},
      {"fullcapture_ports=80", "LO-HI"},
      {"fullcapture_ports=90-80", "LO-HI"},
      {"boot_time_ns=1", "read-only"},
      {"nope=1", "unknown setting \"nope\""},
      {"snaplen", "not KEY=VALUE"},
  };
  for (const auto& [arg, why] : bad) {
    absl::StatusOr<kestrel_capture_settings> r = ApplyAssignments(s, {"snaplen=100", arg});
    ASSERT_FALSE(r.ok()) << arg;
    EXPECT_NE(r.status().message().find(why), std::string::npos) << r.status();
    EXPECT_NE(r.status().message().find("nothing was changed"), std::string::npos);
  }
  EXPECT_EQ(std::memcmp(&s, &original, sizeof(s)), 0);
}

}  // namespace
}  // namespace kestrel::cli
