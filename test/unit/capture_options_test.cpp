#include "kestrel/capture/capture_options.h"

#include <gtest/gtest.h>
#include <sys/syscall.h>

#include "verb_parse.h"

namespace kestrel::cli {
namespace {

absl::StatusOr<CaptureOptions> Parse(std::vector<std::string> args) {
  return ParseVerbArgs<CaptureOptions>(DefineCaptureOptions, args);
}

std::string ErrorOf(std::vector<std::string> args) {
  absl::StatusOr<CaptureOptions> o = Parse(args);
  return o.ok() ? "" : std::string(o.status().message());
}

TEST(CaptureOptionsTest, DefaultsCaptureEverythingForever) {
  absl::StatusOr<CaptureOptions> o = Parse({});
  ASSERT_TRUE(o.ok());
  EXPECT_TRUE(o->all_syscalls);
  EXPECT_EQ(o->pid, 0u);
  EXPECT_FALSE(o->count.has_value());
  EXPECT_FALSE(o->duration_s.has_value());
  EXPECT_FALSE(o->json);
}

TEST(CaptureOptionsTest, SettingsStorageIsBssOrArray) {
  EXPECT_EQ(Parse({})->settings_storage, static_cast<uint32_t>(PMAN_SETTINGS_STORAGE_DEFAULT));
  EXPECT_EQ(Parse({"--settings-storage", "bss"})->settings_storage,
            static_cast<uint32_t>(PMAN_SETTINGS_STORAGE_BSS));
  EXPECT_EQ(Parse({"--settings-storage", "array"})->settings_storage,
            static_cast<uint32_t>(PMAN_SETTINGS_STORAGE_ARRAY));
  EXPECT_EQ(ErrorOf({"--settings-storage", "map"}),
            "--settings-storage: \"map\" is neither bss nor array");
}

TEST(CaptureOptionsTest, ParsesEveryFlag) {
  absl::StatusOr<CaptureOptions> o =
      Parse({"--syscalls", "openat,execve", "--pid", "1234", "--count", "10", "--duration", "2.5",
             "--json", "--buffer-bytes", "65536", "--cpus-per-buffer", "1"});
  ASSERT_TRUE(o.ok()) << o.status();
  EXPECT_FALSE(o->all_syscalls);
  EXPECT_EQ(o->syscalls, (std::vector<uint32_t>{SYS_openat, SYS_execve}));
  EXPECT_EQ(o->pid, 1234u);
  EXPECT_EQ(o->count, 10u);
  EXPECT_DOUBLE_EQ(*o->duration_s, 2.5);
  EXPECT_TRUE(o->json);
  EXPECT_EQ(o->buffer_bytes, 65536u);
  EXPECT_EQ(o->cpus_per_buffer, 1u);
}

TEST(CaptureOptionsTest, IoDataIsOptIn) {
  EXPECT_FALSE(Parse({})->io_data);
  EXPECT_TRUE(Parse({"--io-data"})->io_data);
}

TEST(CaptureOptionsTest, ErrorsNameTheFlag) {
  EXPECT_EQ(ErrorOf({"--pid", "abc"}), "--pid: \"abc\" is not a whole number");
  EXPECT_EQ(ErrorOf({"--pid", "0"}), "--pid: must be a process id above 0");
  EXPECT_EQ(ErrorOf({"--count"}), "--count: needs a value");
  EXPECT_EQ(ErrorOf({"--count", "0"}), "--count: must be at least 1");
  EXPECT_EQ(ErrorOf({"--count", "abc"}), "--count: \"abc\" is not a whole number");
  EXPECT_EQ(ErrorOf({"--duration", "-1"}),
            "--duration: \"-1\" is not a positive number of seconds");
  EXPECT_EQ(ErrorOf({"--bogus"}), "unknown option \"--bogus\"");
  EXPECT_EQ(ErrorOf({"--all", "--syscalls", "openat"}),
            "--syscalls and --all cannot be used together");
  EXPECT_NE(ErrorOf({"--syscalls", "openat,nosuch"}).find("unknown syscall \"nosuch\""),
            std::string::npos);
}

TEST(CaptureOptionsTest, DurationMustBeFiniteAndAtMost30Days) {
  EXPECT_EQ(ErrorOf({"--duration", "inf"}),
            "--duration: \"inf\" is not a positive number of seconds");
  EXPECT_EQ(ErrorOf({"--duration", "nan"}),
            "--duration: \"nan\" is not a positive number of seconds");
  EXPECT_EQ(ErrorOf({"--duration", "1e10"}),
            "--duration: \"1e10\" is more than 30 days (2592000 seconds)");
  EXPECT_DOUBLE_EQ(*Parse({"--duration", "2592000"})->duration_s, kMaxDurationSeconds);
}

TEST(CaptureOptionsTest, RepeatedFlagsAreRefused) {
  EXPECT_EQ(ErrorOf({"--count", "1", "--count", "2"}), "--count: given more than once");
  EXPECT_EQ(ErrorOf({"--json", "--json"}), "--json: given more than once");
  EXPECT_EQ(ErrorOf({"--syscalls", "openat", "--syscalls", "read"}),
            "--syscalls: given more than once");
}

TEST(CaptureOptionsTest, ListEventsTakesNoCaptureFlag) {
  EXPECT_TRUE(Parse({"--list-events"})->list_events);
  EXPECT_EQ(ErrorOf({"--list-events", "--json"}),
            "--list-events and --json cannot be used together");
  EXPECT_EQ(ErrorOf({"--count", "1", "--list-events"}),
            "--list-events and --count cannot be used together");
}

TEST(CaptureOptionsTest, PinAndLockFlags) {
  absl::StatusOr<CaptureOptions> o = Parse({});
  ASSERT_TRUE(o.ok());
  EXPECT_FALSE(o->pin_dir.has_value());
  EXPECT_FALSE(o->lock_settings);
  o = Parse({"--pin", "--lock-settings"});
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(o->pin_dir, "");  // libpman's default directory
  EXPECT_TRUE(o->lock_settings);
  o = Parse({"--pin-dir", "/sys/fs/bpf/elsewhere"});
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(o->pin_dir, "/sys/fs/bpf/elsewhere");
  EXPECT_EQ(ErrorOf({"--pin-dir", "/sys/fs/bpf/elsewhere", "--pin"}),
            "--pin and --pin-dir cannot be used together");
  EXPECT_EQ(ErrorOf({"--pin-dir"}), "--pin-dir: needs a value");
  EXPECT_EQ(ErrorOf({"--pin-dir", ""}), "--pin-dir: needs a directory");
}

}  // namespace
}  // namespace kestrel::cli
