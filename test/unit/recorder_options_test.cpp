#include "kestrel/recorder/recorder_options.h"

#include <gtest/gtest.h>
#include <sys/syscall.h>

namespace kestrel::cli {
namespace {

TEST(RecorderOptionsTest, ByteSizesTakeBinarySuffixes) {
  EXPECT_EQ(*ParseRecorderSize("65536"), 65536u);
  EXPECT_EQ(*ParseRecorderSize("512K"), 512u << 10);
  EXPECT_EQ(*ParseRecorderSize("64M"), 64u << 20);
  EXPECT_EQ(*ParseRecorderSize("1g"), 1ULL << 30);
  EXPECT_FALSE(ParseRecorderSize("").ok());
  EXPECT_FALSE(ParseRecorderSize("M").ok());
  EXPECT_FALSE(ParseRecorderSize("0").ok());
  EXPECT_FALSE(ParseRecorderSize("12X").ok());
}

TEST(RecorderOptionsTest, DurationsTakeUnits) {
  EXPECT_EQ(*ParseDuration("500ms"), 500'000'000u);
  EXPECT_EQ(*ParseDuration("10s"), 10'000'000'000u);
  EXPECT_EQ(*ParseDuration("2"), 2'000'000'000u);
  EXPECT_EQ(*ParseDuration("5m"), 300'000'000'000u);
  EXPECT_EQ(*ParseDuration("1.5h"), 5'400'000'000'000u);
  EXPECT_FALSE(ParseDuration("-1s").ok());
  EXPECT_FALSE(ParseDuration("s").ok());
  EXPECT_FALSE(ParseDuration("3d").ok());
}

TEST(RecorderOptionsTest, StartParsesEveryFlag) {
  absl::StatusOr<RecorderStartOptions> o = ParseRecorderStartOptions(
      {"--name", "web", "--pin-root", "/sys/fs/bpf/x", "--size", "1M", "--per-cpu", "--syscalls",
       "getppid,openat", "--cgroup", "system.slice"});
  ASSERT_TRUE(o.ok()) << o.status();
  EXPECT_EQ(o->target.name, "web");
  EXPECT_EQ(o->target.pin_root, "/sys/fs/bpf/x");
  EXPECT_EQ(o->size_bytes, 1u << 20);
  EXPECT_TRUE(o->per_cpu);
  EXPECT_EQ(*o->syscalls, (std::vector<uint32_t>{SYS_getppid, SYS_openat}));
  EXPECT_EQ(o->cgroup_path, "system.slice");
}

TEST(RecorderOptionsTest, StartDefaultsToEverySyscallIn64MiB) {
  absl::StatusOr<RecorderStartOptions> o = ParseRecorderStartOptions({});
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(o->target.name, "default");
  EXPECT_EQ(o->target.pin_root, "/sys/fs/bpf/kestrel");
  EXPECT_EQ(o->size_bytes, 64u << 20);
  EXPECT_FALSE(o->per_cpu);
  EXPECT_FALSE(o->syscalls.has_value());
  EXPECT_TRUE(o->cgroup_path.empty());
}

TEST(RecorderOptionsTest, StopTakesOnlyTheTarget) {
  EXPECT_EQ(ParseRecorderStopOptions({"--name", "a"})->name, "a");
  EXPECT_FALSE(ParseRecorderStopOptions({"--size", "1M"}).ok());
  EXPECT_FALSE(ParseRecorderStopOptions({"--name"}).ok());
}

TEST(RecorderOptionsTest, DumpTakesLastOrSinceNotBoth) {
  absl::StatusOr<DumpOptions> last = ParseDumpOptions({"--last", "10", "--json"});
  ASSERT_TRUE(last.ok());
  EXPECT_EQ(last->last, 10u);
  EXPECT_TRUE(last->json);
  absl::StatusOr<DumpOptions> since = ParseDumpOptions({"--since", "30s", "--name", "b"});
  ASSERT_TRUE(since.ok());
  EXPECT_EQ(since->since_ns, 30'000'000'000u);
  EXPECT_EQ(since->target.name, "b");
  EXPECT_FALSE(ParseDumpOptions({"--last", "1", "--since", "1s"}).ok());
  EXPECT_FALSE(ParseDumpOptions({"--last", "0"}).ok());
  EXPECT_FALSE(ParseDumpOptions({"--bogus"}).ok());
}

TEST(RecorderOptionsTest, DumpWritesAFileInsteadOfJson) {
  absl::StatusOr<DumpOptions> file = ParseDumpOptions({"-w", "/tmp/window.kcap", "--last", "5"});
  ASSERT_TRUE(file.ok()) << file.status();
  EXPECT_EQ(file->write_path, "/tmp/window.kcap");
  EXPECT_EQ(file->last, 5u);
  EXPECT_FALSE(ParseDumpOptions({"--json"})->write_path.has_value());
  EXPECT_FALSE(ParseDumpOptions({"--write", "/tmp/w.kcap", "--json"}).ok());
}

}  // namespace
}  // namespace kestrel::cli
