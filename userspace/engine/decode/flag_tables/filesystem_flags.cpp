// Flag names of filesystem query and copy events. Values are the kernel's;
// names are those Falco prints. Where Falco names a zero value (F_OK,
// USRQUOTA, QFMT_NOT_USED, DQF_NONE), the set is an enumeration: a bit
// table never names 0.
#include <fcntl.h>
#include <linux/dqblk_xfs.h>
#include <linux/quota.h>
#include <sys/mount.h>
#include <unistd.h>

#include "flag_table.h"

namespace kestrel::engine {
namespace {

// Every combination, in Falco's R_OK|W_OK|X_OK order.
constexpr FlagName kAccessModes[] = {
    {F_OK, "F_OK"},
    {X_OK, "X_OK"},
    {W_OK, "W_OK"},
    {W_OK | X_OK, "W_OK|X_OK"},
    {R_OK, "R_OK"},
    {R_OK | X_OK, "R_OK|X_OK"},
    {R_OK | W_OK, "R_OK|W_OK"},
    {R_OK | W_OK | X_OK, "R_OK|W_OK|X_OK"},
};

constexpr FlagName kLseekWhence[] = {
    {SEEK_SET, "SEEK_SET"},   {SEEK_CUR, "SEEK_CUR"},   {SEEK_END, "SEEK_END"},
    {SEEK_DATA, "SEEK_DATA"}, {SEEK_HOLE, "SEEK_HOLE"},
};

constexpr FlagName kSpliceBits[] = {
    {SPLICE_F_MOVE, "SPLICE_F_MOVE"},
    {SPLICE_F_NONBLOCK, "SPLICE_F_NONBLOCK"},
    {SPLICE_F_MORE, "SPLICE_F_MORE"},
    {SPLICE_F_GIFT, "SPLICE_F_GIFT"},
};

// quotactl's subcommand: cmd >> SUBCMDSHIFT.
constexpr FlagName kQuotactlCommands[] = {
    {Q_QUOTAON, "Q_QUOTAON"},
    {Q_QUOTAOFF, "Q_QUOTAOFF"},
    {Q_GETFMT, "Q_GETFMT"},
    {Q_GETINFO, "Q_GETINFO"},
    {Q_SETINFO, "Q_SETINFO"},
    {Q_GETQUOTA, "Q_GETQUOTA"},
    {Q_SETQUOTA, "Q_SETQUOTA"},
    {Q_SYNC, "Q_SYNC"},
    {Q_GETNEXTQUOTA, "Q_GETNEXTQUOTA"},
    {Q_XQUOTAON, "Q_XQUOTAON"},
    {Q_XQUOTAOFF, "Q_XQUOTAOFF"},
    {Q_XGETQUOTA, "Q_XGETQUOTA"},
    {Q_XSETQLIM, "Q_XSETQLIM"},
    {Q_XGETQSTAT, "Q_XGETQSTAT"},
    {Q_XQUOTARM, "Q_XQUOTARM"},
    {Q_XQUOTASYNC, "Q_XQUOTASYNC"},
    {Q_XGETQSTATV, "Q_XGETQSTATV"},
    {Q_XGETNEXTQUOTA, "Q_XGETNEXTQUOTA"},
};

// quotactl's type: cmd & SUBCMDMASK.
constexpr FlagName kQuotactlTypes[] = {
    {USRQUOTA, "USRQUOTA"},
    {GRPQUOTA, "GRPQUOTA"},
    {PRJQUOTA, "PRJQUOTA"},
};

// 0 stands for no format: the command carries none.
constexpr FlagName kQuotaFormats[] = {
    {0, "QFMT_NOT_USED"},       {QFMT_VFS_OLD, "QFMT_VFS_OLD"}, {QFMT_VFS_V0, "QFMT_VFS_V0"},
    {QFMT_OCFS2, "QFMT_OCFS2"}, {QFMT_VFS_V1, "QFMT_VFS_V1"},
};

// The v1 format's only info flag (the kernel's V1_DQF_RSQUASH, not in the
// UAPI headers).
constexpr FlagName kQuotaInfoFlags[] = {{0, "DQF_NONE"}, {1, "V1_DQF_RSQUASH"}};

constexpr FlagName kFsconfigCommands[] = {
    {FSCONFIG_SET_FLAG, "FSCONFIG_SET_FLAG"},
    {FSCONFIG_SET_STRING, "FSCONFIG_SET_STRING"},
    {FSCONFIG_SET_BINARY, "FSCONFIG_SET_BINARY"},
    {FSCONFIG_SET_PATH, "FSCONFIG_SET_PATH"},
    {FSCONFIG_SET_PATH_EMPTY, "FSCONFIG_SET_PATH_EMPTY"},
    {FSCONFIG_SET_FD, "FSCONFIG_SET_FD"},
    {FSCONFIG_CMD_CREATE, "FSCONFIG_CMD_CREATE"},
    {FSCONFIG_CMD_RECONFIGURE, "FSCONFIG_CMD_RECONFIGURE"},
};

}  // namespace

std::optional<FlagTable> FilesystemFlagTable(kestrel_flag_set set) {
  switch (set) {
    case KFS_ACCESS_MODE:
      return FlagTable{{}, kAccessModes, 0};
    case KFS_LSEEK_WHENCE:
      return FlagTable{{}, kLseekWhence, 0};
    case KFS_SPLICE_FLAGS:
      return FlagTable{kSpliceBits, {}, 0};
    case KFS_QUOTACTL_CMD:
      return FlagTable{{}, kQuotactlCommands, 0};
    case KFS_QUOTACTL_TYPE:
      return FlagTable{{}, kQuotactlTypes, 0};
    case KFS_QUOTACTL_FMT:
      return FlagTable{{}, kQuotaFormats, 0};
    case KFS_QUOTACTL_DQI_FLAGS:
      return FlagTable{{}, kQuotaInfoFlags, 0};
    case KFS_FSCONFIG_CMD:
      return FlagTable{{}, kFsconfigCommands, 0};
    default:
      return std::nullopt;
  }
}

}  // namespace kestrel::engine
