// The settings' command-line flags, registered from the settings table on
// an app built here, parsed as a verb would.
#include "kestrel/common/setting_flags.h"

#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "shared/settings_table.h"

namespace kestrel::cli {
namespace {

struct Parsed {
  bool ok = false;
  std::string error;
  SettingOverrides overrides;
};

Parsed Parse(const std::vector<std::string>& args) {
  CLI::App app("test", "kestrel test");
  Parsed p;
  AddSettingFlags(app, p.overrides);
  std::vector<std::string> reversed(args.rbegin(), args.rend());
  try {
    app.parse(reversed);
    p.ok = true;
  } catch (const CLI::ParseError& e) {
    p.error = e.what();
  }
  return p;
}

TEST(SettingFlagsTest, RegistersTheUserSettableScalars) {
  CLI::App app("test", "kestrel test");
  SettingOverrides out;
  AddSettingFlags(app, out);
  for (const char* flag : {"--snaplen", "--pid", "--drop-failed", "--dropping-mode", "--io-data",
                           "--sampling-ratio"}) {
    EXPECT_NE(app.get_option_no_throw(flag), nullptr) << flag;
  }
  // Not the user's to set, or not scalars.
  for (const char* flag : {"--own-tgid", "--boot-time-ns", "--target-lists-set", "--target-tgids",
                           "--target-cgroups", "--fullcapture-ports"}) {
    EXPECT_EQ(app.get_option_no_throw(flag), nullptr) << flag;
  }
  EXPECT_NE(app.help().find("bytes of I/O data kept per buffer parameter (0..16384, default 80)"),
            std::string::npos)
      << app.help();
}

TEST(SettingFlagsTest, NothingGivenOverridesNothing) {
  const Parsed p = Parse({});
  ASSERT_TRUE(p.ok) << p.error;
  EXPECT_TRUE(p.overrides.values.empty());
  kestrel_capture_settings s{};
  s.snaplen = 80;
  const kestrel_capture_settings before = s;
  ASSERT_TRUE(agent::ApplySettingOverrides(p.overrides, s).ok());
  EXPECT_EQ(std::memcmp(&s, &before, sizeof(s)), 0);
}

TEST(SettingFlagsTest, ValuesAtTheEdgesAreApplied) {
  const Parsed p = Parse({"--snaplen", "16384", "--drop-failed", "--dropping-mode",
                          "--sampling-ratio=4294967295", "--io-data", "--pid", "4194303"});
  ASSERT_TRUE(p.ok) << p.error;
  kestrel_capture_settings s{};
  ASSERT_TRUE(agent::ApplySettingOverrides(p.overrides, s).ok());
  EXPECT_EQ(s.snaplen, 16384u);
  EXPECT_EQ(s.drop_failed, 1);
  EXPECT_EQ(s.dropping_mode, 1);
  EXPECT_EQ(s.sampling_ratio, 4294967295u);
  EXPECT_EQ(s.capture_io_data, 1);
  EXPECT_EQ(s.target_tgid, 4194303u);

  const Parsed low = Parse({"--snaplen", "0", "--sampling-ratio", "1", "--pid", "0"});
  ASSERT_TRUE(low.ok) << low.error;
  ASSERT_TRUE(agent::ApplySettingOverrides(low.overrides, s).ok());
  EXPECT_EQ(s.snaplen, 0u);
  EXPECT_EQ(s.sampling_ratio, 1u);
  EXPECT_EQ(s.target_tgid, 0u);
}

TEST(SettingFlagsTest, ValuesPastTheEdgesNameTheFlagAndTheBound) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> bad = {
      {{"--snaplen", "16385"}, "--snaplen: 16385 is above the maximum 16384"},
      {{"--snaplen", "70000"}, "--snaplen: 70000 is above the maximum 16384"},
      {{"--snaplen", "-1"}, "--snaplen: snaplen expects a number from 0 to 16384, not \"-1\""},
      {{"--snaplen", "12k"}, "--snaplen: snaplen expects a number from 0 to 16384, not \"12k\""},
      {{"--sampling-ratio", "0"}, "--sampling-ratio: 0 is below the minimum 1"},
      {{"--sampling-ratio", "4294967296"},
       "--sampling-ratio: 4294967296 is above the maximum 4294967295"},
      {{"--pid", "4194304"}, "--pid: 4194304 is above the maximum 4194303"},
  };
  for (const auto& [args, message] : bad) {
    const Parsed p = Parse(args);
    EXPECT_FALSE(p.ok) << args[0];
    EXPECT_EQ(p.error, message);
  }
  // A switch takes no value: "=0" must not quietly turn it on.
  EXPECT_FALSE(Parse({"--drop-failed=2"}).ok);
  EXPECT_FALSE(Parse({"--io-data=0"}).ok);
}

TEST(SettingFlagsTest, ApplyRefusesWhatNoFlagCouldHaveSet) {
  kestrel_capture_settings s{};
  const kestrel_capture_settings before = s;
  SettingOverrides bad;
  bad.values = {{"snaplen", 100}, {"own_tgid", 5}};
  EXPECT_FALSE(agent::ApplySettingOverrides(bad, s).ok());
  bad.values = {{"snaplen", KESTREL_MAX_SNAPLEN + 1}};
  EXPECT_FALSE(agent::ApplySettingOverrides(bad, s).ok());
  bad.values = {{"target_tgids", 1}};
  EXPECT_FALSE(agent::ApplySettingOverrides(bad, s).ok());
  EXPECT_EQ(std::memcmp(&s, &before, sizeof(s)), 0);
}

}  // namespace
}  // namespace kestrel::cli
