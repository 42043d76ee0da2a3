// Names the system family's flag sets print: Falco's names over the
// kernel's values.
#include <gtest/gtest.h>
#include <linux/futex.h>
#include <linux/io_uring.h>
#include <linux/keyctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/sem.h>

#include "engine/decode/flag_sets.h"

namespace kestrel::engine {
namespace {

TEST(SystemFlagsTest, FutexCommandAndModifiers) {
  EXPECT_EQ(FormatFlags(KFS_FUTEX_OP, FUTEX_WAIT), "FUTEX_WAIT");
  EXPECT_EQ(FormatFlags(KFS_FUTEX_OP, FUTEX_WAKE | FUTEX_PRIVATE_FLAG),
            "FUTEX_WAKE|FUTEX_PRIVATE_FLAG");
  EXPECT_EQ(
      FormatFlags(KFS_FUTEX_OP, FUTEX_WAIT_BITSET | FUTEX_PRIVATE_FLAG | FUTEX_CLOCK_REALTIME),
      "FUTEX_WAIT_BITSET|FUTEX_PRIVATE_FLAG|FUTEX_CLOCK_REALTIME");
}

TEST(SystemFlagsTest, LimitsAndLocking) {
  EXPECT_EQ(FormatFlags(KFS_RLIMIT_RESOURCE, RLIMIT_NOFILE), "RLIMIT_NOFILE");
  EXPECT_EQ(FormatFlags(KFS_RLIMIT_RESOURCE, RLIMIT_CPU), "RLIMIT_CPU");
  EXPECT_EQ(FormatFlags(KFS_RLIMIT_RESOURCE, 9999), "9999");
  EXPECT_EQ(FormatFlags(KFS_MLOCK2_FLAGS, MLOCK_ONFAULT), "MLOCK_ONFAULT");
  EXPECT_EQ(FormatFlags(KFS_MLOCKALL_FLAGS, MCL_CURRENT | MCL_ONFAULT), "MCL_CURRENT|MCL_ONFAULT");
}

TEST(SystemFlagsTest, SemaphoresAndKeys) {
  EXPECT_EQ(FormatFlags(KFS_SEMCTL_CMD, SETVAL), "SETVAL");
  EXPECT_EQ(FormatFlags(KFS_SEMCTL_CMD, IPC_RMID), "IPC_RMID");
  EXPECT_EQ(FormatFlags(KFS_SEMGET_FLAGS, IPC_CREAT | IPC_EXCL), "IPC_CREAT|IPC_EXCL");
  EXPECT_EQ(FormatFlags(KFS_SEMOP_FLAGS, IPC_NOWAIT | SEM_UNDO), "IPC_NOWAIT|SEM_UNDO");
  EXPECT_EQ(FormatFlags(KFS_KEYCTL_OPERATION, KEYCTL_GET_KEYRING_ID), "KEYCTL_GET_KEYRING_ID");
  EXPECT_EQ(FormatFlags(KFS_KEYCTL_OPERATION, KEYCTL_WATCH_KEY), "KEYCTL_WATCH_KEY");
}

TEST(SystemFlagsTest, IoUring) {
  EXPECT_EQ(FormatFlags(KFS_IO_URING_ENTER_FLAGS, IORING_ENTER_GETEVENTS | IORING_ENTER_SQ_WAKEUP),
            "IORING_ENTER_GETEVENTS|IORING_ENTER_SQ_WAKEUP");
  EXPECT_EQ(FormatFlags(KFS_IO_URING_REGISTER_OPCODE, IORING_REGISTER_PERSONALITY),
            "IORING_REGISTER_PERSONALITY");
  EXPECT_EQ(FormatFlags(KFS_IO_URING_REGISTER_OPCODE, IORING_REGISTER_BUFFERS),
            "IORING_REGISTER_BUFFERS");
}

}  // namespace
}  // namespace kestrel::engine
