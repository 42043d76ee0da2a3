// SettingsControl over a control block in plain memory: every
// accepted change bumps the generation once with its kind, refused ones
// change nothing, and a locked control refuses everything.
#include "settings_control.h"

#include <gtest/gtest.h>
#include <sys/file.h>
#include <unistd.h>

#include <fcntl.h>
#include <cerrno>
#include <cstring>

#include "shared/syscall_table_x86_64.h"

namespace kestrel::pman {
namespace {

TEST(SettingsControlTest, AcceptedChangesBumpTheGenerationWithTheirKind) {
  kestrel_control_block block{};
  SettingsControl control(&block, -1);
  ASSERT_TRUE(control.MarkSyscall(257, true).ok());
  EXPECT_EQ(block.interesting_syscalls[257], 1);
  EXPECT_EQ(block.generation.generation, 1u);
  EXPECT_EQ(block.generation.changed, KESTREL_CHANGED_SYSCALLS);

  ASSERT_TRUE(control.SetDropClass(0, KESTREL_DROP_ALWAYS).ok());
  EXPECT_EQ(control.DropClass(0), KESTREL_DROP_ALWAYS);
  kestrel_capture_settings s{};
  s.snaplen = 100;
  ASSERT_TRUE(control.UpdateSettings(s).ok());
  EXPECT_EQ(control.GetSettings().snaplen, 100u);
  const uint8_t set[3] = {1, 0, 1};
  ASSERT_TRUE(control.EnforceSyscallSet(set, 3).ok());
  EXPECT_TRUE(control.IsInteresting(0));
  EXPECT_FALSE(control.IsInteresting(257));
  EXPECT_EQ(control.Generation(), 4u);
  EXPECT_EQ(block.generation.changed,
            KESTREL_CHANGED_SYSCALLS | KESTREL_CHANGED_DROP_CLASSES | KESTREL_CHANGED_SETTINGS);
  // Each publish stamps both ends of its slot alike.
  const kestrel_settings_slot& slot = block.settings_store.slots[block.settings_store.active];
  EXPECT_EQ(slot.body.stamp_head, slot.body.stamp_tail);
  EXPECT_NE(slot.body.stamp_head, 0u);
}

TEST(SettingsControlTest, RefusedChangesLeaveEverythingAsItWas) {
  kestrel_control_block block{};
  SettingsControl control(&block, -1);
  kestrel_capture_settings s{};
  ASSERT_TRUE(control.UpdateSettings(s).ok());
  const kestrel_control_block before = block;
  s.dropping_mode = 1;  // with sampling_ratio 0
  EXPECT_EQ(control.UpdateSettings(s).code(), absl::StatusCode::kInvalidArgument);
  s = {};
  s.drop_failed = 2;
  EXPECT_EQ(control.UpdateSettings(s).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(control.MarkSyscall(KESTREL_SYSCALL_TABLE_SIZE, true).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(control.SetDropClass(1, 3).code(), absl::StatusCode::kInvalidArgument);
  std::vector<uint8_t> too_big(KESTREL_SYSCALL_TABLE_SIZE + 1, 1);
  EXPECT_FALSE(control.EnforceSyscallSet(too_big.data(), too_big.size()).ok());
  EXPECT_FALSE(control
                   .EditSettings([](kestrel_capture_settings& e) {
                     e.snaplen = 1;
                     return absl::CancelledError("changed my mind");
                   })
                   .ok());
  EXPECT_EQ(std::memcmp(&before, &block, sizeof(block)), 0);
}

TEST(SettingsControlTest, ReadOnlyControlRefusesEveryWrite) {
  kestrel_control_block block{};
  SettingsControl control(&block, -1);
  control.MakeReadOnly();
  const uint8_t set[1] = {1};
  EXPECT_EQ(control.MarkSyscall(1, true).code(), absl::StatusCode::kPermissionDenied);
  EXPECT_EQ(control.EnforceSyscallSet(set, 1).code(), absl::StatusCode::kPermissionDenied);
  EXPECT_EQ(control.SetDropClass(1, 1).code(), absl::StatusCode::kPermissionDenied);
  EXPECT_EQ(control.UpdateSettings({}).code(), absl::StatusCode::kPermissionDenied);
  EXPECT_EQ(control.Generation(), 0u);
}

// The write holds the lock: a writer through another open of the same
// directory finds it taken while the edit runs.
TEST(SettingsControlTest, WritesHoldTheDirectoryLock) {
  char dir[] = "/tmp/kestrel-lock-XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  const int ours = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  const int other = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  ASSERT_GE(ours, 0);
  ASSERT_GE(other, 0);
  kestrel_control_block block{};
  SettingsControl control(&block, ours);
  bool held = false;
  ASSERT_TRUE(control
                  .EditSettings([&](kestrel_capture_settings&) {
                    held = flock(other, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK;
                    return absl::OkStatus();
                  })
                  .ok());
  EXPECT_TRUE(held);
  EXPECT_EQ(flock(other, LOCK_EX | LOCK_NB), 0);  // released afterwards
  close(ours);
  close(other);
  rmdir(dir);
}

}  // namespace
}  // namespace kestrel::pman
