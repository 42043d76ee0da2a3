// Names the file family's flag sets print.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/mount.h>

#include "engine/decode/flag_sets.h"

namespace kestrel::engine {
namespace {

TEST(FileFlagsTest, RenameMountAndUmountBits) {
  EXPECT_EQ(FormatFlags(KFS_RENAME_FLAGS, RENAME_NOREPLACE), "RENAME_NOREPLACE");
  EXPECT_EQ(FormatFlags(KFS_RENAME_FLAGS, RENAME_EXCHANGE | 0x100), "RENAME_EXCHANGE|0x100");
  EXPECT_EQ(FormatFlags(KFS_MOUNT_FLAGS, MS_BIND | MS_REC | MS_RDONLY), "MS_RDONLY|MS_BIND|MS_REC");
  EXPECT_EQ(FormatFlags(KFS_MOUNT_FLAGS, MS_REC | MS_PRIVATE), "MS_REC|MS_PRIVATE");
  EXPECT_EQ(FormatFlags(KFS_UMOUNT_FLAGS, MNT_DETACH | UMOUNT_NOFOLLOW),
            "MNT_DETACH|UMOUNT_NOFOLLOW");
  EXPECT_EQ(FormatFlags(KFS_UMOUNT_FLAGS, 0), "0");
}

TEST(FileFlagsTest, MemoryFlags) {
  EXPECT_EQ(FormatFlags(KFS_PROT_FLAGS, PROT_READ | PROT_EXEC), "PROT_READ|PROT_EXEC");
  EXPECT_EQ(FormatFlags(KFS_MMAP_FLAGS, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED),
            "MAP_PRIVATE|MAP_FIXED|MAP_ANONYMOUS");
  EXPECT_EQ(FormatFlags(KFS_MMAP_FLAGS, MAP_SHARED_VALIDATE | MAP_SYNC),
            "MAP_SHARED_VALIDATE|MAP_SYNC");
  EXPECT_EQ(FormatFlags(KFS_MEMFD_FLAGS, MFD_CLOEXEC | MFD_ALLOW_SEALING),
            "MFD_CLOEXEC|MFD_ALLOW_SEALING");
}

TEST(FileFlagsTest, FcntlCommandsAreAnEnumeration) {
  EXPECT_EQ(FormatFlags(KFS_FCNTL_CMD, F_GETFD), "F_GETFD");
  EXPECT_EQ(FormatFlags(KFS_FCNTL_CMD, F_DUPFD), "F_DUPFD");
  EXPECT_EQ(FormatFlags(KFS_FCNTL_CMD, F_ADD_SEALS), "F_ADD_SEALS");
  EXPECT_EQ(FormatFlags(KFS_FCNTL_CMD, 9999), "9999");
  EXPECT_EQ(FormatFlags(KFS_DUP3_FLAGS, O_CLOEXEC), "O_CLOEXEC");
}

}  // namespace
}  // namespace kestrel::engine
