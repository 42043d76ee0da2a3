// Names the filesystem family's flag sets print: Falco's names over the
// kernel's values, zero values named where Falco names them.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <linux/quota.h>
#include <sys/mount.h>
#include <unistd.h>

#include "engine/decode/flag_sets.h"

namespace kestrel::engine {
namespace {

TEST(FilesystemFlagsTest, AccessModeNamesFOkAndTheBitsInFalcosOrder) {
  EXPECT_EQ(FormatFlags(KFS_ACCESS_MODE, F_OK), "F_OK");
  EXPECT_EQ(FormatFlags(KFS_ACCESS_MODE, R_OK), "R_OK");
  EXPECT_EQ(FormatFlags(KFS_ACCESS_MODE, X_OK | R_OK), "R_OK|X_OK");
  EXPECT_EQ(FormatFlags(KFS_ACCESS_MODE, R_OK | W_OK | X_OK), "R_OK|W_OK|X_OK");
  EXPECT_EQ(FormatFlags(KFS_ACCESS_MODE, 0x40), "64");
}

TEST(FilesystemFlagsTest, LseekWhenceAndSpliceFlags) {
  EXPECT_EQ(FormatFlags(KFS_LSEEK_WHENCE, SEEK_SET), "SEEK_SET");
  EXPECT_EQ(FormatFlags(KFS_LSEEK_WHENCE, SEEK_END), "SEEK_END");
  EXPECT_EQ(FormatFlags(KFS_LSEEK_WHENCE, SEEK_HOLE), "SEEK_HOLE");
  EXPECT_EQ(FormatFlags(KFS_LSEEK_WHENCE, 99), "99");
  EXPECT_EQ(FormatFlags(KFS_SPLICE_FLAGS, SPLICE_F_MOVE | SPLICE_F_MORE),
            "SPLICE_F_MOVE|SPLICE_F_MORE");
  EXPECT_EQ(FormatFlags(KFS_SPLICE_FLAGS, SPLICE_F_GIFT | 0x10), "SPLICE_F_GIFT|0x10");
}

TEST(FilesystemFlagsTest, QuotactlCommandTypeAndFormats) {
  EXPECT_EQ(FormatFlags(KFS_QUOTACTL_CMD, Q_QUOTAON), "Q_QUOTAON");
  EXPECT_EQ(FormatFlags(KFS_QUOTACTL_CMD, Q_GETQUOTA), "Q_GETQUOTA");
  EXPECT_EQ(FormatFlags(KFS_QUOTACTL_CMD, 0x5803), "Q_XGETQUOTA");
  EXPECT_EQ(FormatFlags(KFS_QUOTACTL_TYPE, USRQUOTA), "USRQUOTA");
  EXPECT_EQ(FormatFlags(KFS_QUOTACTL_TYPE, GRPQUOTA), "GRPQUOTA");
  EXPECT_EQ(FormatFlags(KFS_QUOTACTL_FMT, 0), "QFMT_NOT_USED");
  EXPECT_EQ(FormatFlags(KFS_QUOTACTL_FMT, QFMT_VFS_V0), "QFMT_VFS_V0");
  EXPECT_EQ(FormatFlags(KFS_QUOTACTL_FMT, QFMT_VFS_V1), "QFMT_VFS_V1");
  EXPECT_EQ(FormatFlags(KFS_QUOTACTL_DQI_FLAGS, 0), "DQF_NONE");
  EXPECT_EQ(FormatFlags(KFS_QUOTACTL_DQI_FLAGS, 1), "V1_DQF_RSQUASH");
}

TEST(FilesystemFlagsTest, FsconfigCommandsAreAnEnumeration) {
  EXPECT_EQ(FormatFlags(KFS_FSCONFIG_CMD, FSCONFIG_SET_FLAG), "FSCONFIG_SET_FLAG");
  EXPECT_EQ(FormatFlags(KFS_FSCONFIG_CMD, FSCONFIG_SET_STRING), "FSCONFIG_SET_STRING");
  EXPECT_EQ(FormatFlags(KFS_FSCONFIG_CMD, FSCONFIG_CMD_RECONFIGURE), "FSCONFIG_CMD_RECONFIGURE");
  EXPECT_EQ(FormatFlags(KFS_FSCONFIG_CMD, 42), "42");
}

}  // namespace
}  // namespace kestrel::engine
