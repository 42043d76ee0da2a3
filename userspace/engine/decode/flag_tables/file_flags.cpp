// Flag names of file events.
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>

#include "flag_table.h"
#include "shared/event_schema.h"

// memfd_create flags newer than this system's headers (Linux 6.3 UAPI).
#ifndef MFD_NOEXEC_SEAL
#define MFD_NOEXEC_SEAL 0x0008U
#endif
#ifndef MFD_EXEC
#define MFD_EXEC 0x0010U
#endif

namespace kestrel::engine {
namespace {

constexpr FlagName kOpenAccess[] = {
    {O_RDONLY, "O_RDONLY"}, {O_WRONLY, "O_WRONLY"}, {O_RDWR, "O_RDWR"}};
constexpr FlagName kOpenBits[] = {
    {O_CREAT, "O_CREAT"},
    {O_EXCL, "O_EXCL"},
    {O_NOCTTY, "O_NOCTTY"},
    {O_TRUNC, "O_TRUNC"},
    {O_APPEND, "O_APPEND"},
    {O_NONBLOCK, "O_NONBLOCK"},
    {O_DSYNC, "O_DSYNC"},
    {O_ASYNC, "O_ASYNC"},
    {O_DIRECT, "O_DIRECT"},
    {O_LARGEFILE, "O_LARGEFILE"},
    {O_DIRECTORY, "O_DIRECTORY"},
    {O_NOFOLLOW, "O_NOFOLLOW"},
    {O_NOATIME, "O_NOATIME"},
    {O_CLOEXEC, "O_CLOEXEC"},
    {O_SYNC & ~O_DSYNC, "O_SYNC"},
    {O_PATH, "O_PATH"},
    {O_TMPFILE & ~O_DIRECTORY, "O_TMPFILE"},
};

constexpr FlagName kAtBits[] = {
    {AT_SYMLINK_NOFOLLOW, "AT_SYMLINK_NOFOLLOW"},
    {AT_REMOVEDIR, "AT_REMOVEDIR"},
    {AT_SYMLINK_FOLLOW, "AT_SYMLINK_FOLLOW"},
    {AT_NO_AUTOMOUNT, "AT_NO_AUTOMOUNT"},
    {AT_EMPTY_PATH, "AT_EMPTY_PATH"},
};

constexpr FlagName kRenameBits[] = {
    {RENAME_NOREPLACE, "RENAME_NOREPLACE"},
    {RENAME_EXCHANGE, "RENAME_EXCHANGE"},
    {RENAME_WHITEOUT, "RENAME_WHITEOUT"},
};

constexpr FlagName kMountBits[] = {
    {MS_RDONLY, "MS_RDONLY"},
    {MS_NOSUID, "MS_NOSUID"},
    {MS_NODEV, "MS_NODEV"},
    {MS_NOEXEC, "MS_NOEXEC"},
    {MS_SYNCHRONOUS, "MS_SYNCHRONOUS"},
    {MS_REMOUNT, "MS_REMOUNT"},
    {MS_MANDLOCK, "MS_MANDLOCK"},
    {MS_DIRSYNC, "MS_DIRSYNC"},
    {MS_NOSYMFOLLOW, "MS_NOSYMFOLLOW"},
    {MS_NOATIME, "MS_NOATIME"},
    {MS_NODIRATIME, "MS_NODIRATIME"},
    {MS_BIND, "MS_BIND"},
    {MS_MOVE, "MS_MOVE"},
    {MS_REC, "MS_REC"},
    {MS_SILENT, "MS_SILENT"},
    {MS_POSIXACL, "MS_POSIXACL"},
    {MS_UNBINDABLE, "MS_UNBINDABLE"},
    {MS_PRIVATE, "MS_PRIVATE"},
    {MS_SLAVE, "MS_SLAVE"},
    {MS_SHARED, "MS_SHARED"},
    {MS_RELATIME, "MS_RELATIME"},
    {MS_KERNMOUNT, "MS_KERNMOUNT"},
    {MS_I_VERSION, "MS_I_VERSION"},
    {MS_STRICTATIME, "MS_STRICTATIME"},
    {MS_LAZYTIME, "MS_LAZYTIME"},
    {MS_ACTIVE, "MS_ACTIVE"},
    {static_cast<uint32_t>(MS_NOUSER), "MS_NOUSER"},
};

constexpr FlagName kUmountBits[] = {
    {MNT_FORCE, "MNT_FORCE"},
    {MNT_DETACH, "MNT_DETACH"},
    {MNT_EXPIRE, "MNT_EXPIRE"},
    {UMOUNT_NOFOLLOW, "UMOUNT_NOFOLLOW"},
};

constexpr FlagName kMemfdBits[] = {
    {MFD_CLOEXEC, "MFD_CLOEXEC"}, {MFD_ALLOW_SEALING, "MFD_ALLOW_SEALING"},
    {MFD_HUGETLB, "MFD_HUGETLB"}, {MFD_NOEXEC_SEAL, "MFD_NOEXEC_SEAL"},
    {MFD_EXEC, "MFD_EXEC"},
};

constexpr FlagName kProtBits[] = {
    {PROT_READ, "PROT_READ"},           {PROT_WRITE, "PROT_WRITE"},     {PROT_EXEC, "PROT_EXEC"},
    {PROT_GROWSDOWN, "PROT_GROWSDOWN"}, {PROT_GROWSUP, "PROT_GROWSUP"},
};

constexpr FlagName kMmapType[] = {
    {MAP_SHARED, "MAP_SHARED"},
    {MAP_PRIVATE, "MAP_PRIVATE"},
    {MAP_SHARED_VALIDATE, "MAP_SHARED_VALIDATE"},
};
constexpr FlagName kMmapBits[] = {
    {MAP_FIXED, "MAP_FIXED"},         {MAP_ANONYMOUS, "MAP_ANONYMOUS"},
    {MAP_32BIT, "MAP_32BIT"},         {MAP_GROWSDOWN, "MAP_GROWSDOWN"},
    {MAP_DENYWRITE, "MAP_DENYWRITE"}, {MAP_EXECUTABLE, "MAP_EXECUTABLE"},
    {MAP_LOCKED, "MAP_LOCKED"},       {MAP_NORESERVE, "MAP_NORESERVE"},
    {MAP_POPULATE, "MAP_POPULATE"},   {MAP_NONBLOCK, "MAP_NONBLOCK"},
    {MAP_STACK, "MAP_STACK"},         {MAP_HUGETLB, "MAP_HUGETLB"},
    {MAP_SYNC, "MAP_SYNC"},           {MAP_FIXED_NOREPLACE, "MAP_FIXED_NOREPLACE"},
};

constexpr FlagName kFcntlCommands[] = {
    {F_DUPFD, "F_DUPFD"},
    {F_GETFD, "F_GETFD"},
    {F_SETFD, "F_SETFD"},
    {F_GETFL, "F_GETFL"},
    {F_SETFL, "F_SETFL"},
    {F_GETLK, "F_GETLK"},
    {F_SETLK, "F_SETLK"},
    {F_SETLKW, "F_SETLKW"},
    {F_SETOWN, "F_SETOWN"},
    {F_GETOWN, "F_GETOWN"},
    {F_SETSIG, "F_SETSIG"},
    {F_GETSIG, "F_GETSIG"},
    {F_SETOWN_EX, "F_SETOWN_EX"},
    {F_GETOWN_EX, "F_GETOWN_EX"},
    {F_OFD_GETLK, "F_OFD_GETLK"},
    {F_OFD_SETLK, "F_OFD_SETLK"},
    {F_OFD_SETLKW, "F_OFD_SETLKW"},
    {F_SETLEASE, "F_SETLEASE"},
    {F_GETLEASE, "F_GETLEASE"},
    {F_NOTIFY, "F_NOTIFY"},
    {F_DUPFD_CLOEXEC, "F_DUPFD_CLOEXEC"},
    {F_SETPIPE_SZ, "F_SETPIPE_SZ"},
    {F_GETPIPE_SZ, "F_GETPIPE_SZ"},
    {F_ADD_SEALS, "F_ADD_SEALS"},
    {F_GET_SEALS, "F_GET_SEALS"},
    {F_GET_RW_HINT, "F_GET_RW_HINT"},
    {F_SET_RW_HINT, "F_SET_RW_HINT"},
    {F_GET_FILE_RW_HINT, "F_GET_FILE_RW_HINT"},
    {F_SET_FILE_RW_HINT, "F_SET_FILE_RW_HINT"},
};

constexpr FlagName kDup3Bits[] = {{O_CLOEXEC, "O_CLOEXEC"}};

// Permission bits one by one, in the order Falco prints them (others first,
// set-user-ID last): Falco has no S_IRWXU-style group names.
constexpr FlagName kChmodModeBits[] = {
    {S_IXOTH, "S_IXOTH"}, {S_IWOTH, "S_IWOTH"}, {S_IROTH, "S_IROTH"}, {S_IXGRP, "S_IXGRP"},
    {S_IWGRP, "S_IWGRP"}, {S_IRGRP, "S_IRGRP"}, {S_IXUSR, "S_IXUSR"}, {S_IWUSR, "S_IWUSR"},
    {S_IRUSR, "S_IRUSR"}, {S_ISVTX, "S_ISVTX"}, {S_ISGID, "S_ISGID"}, {S_ISUID, "S_ISUID"},
};

// The overlayfs layer a created file is on (the probe's overlay_layer.h).
constexpr FlagName kCreatBits[] = {
    {1U << 0, "FD_UPPER_LAYER_CREAT"},
    {1U << 1, "FD_LOWER_LAYER_CREAT"},
};

// What an open did (the probe's open_facts): Falco's bits in its open flags.
constexpr FlagName kOpenFactsBits[] = {
    {KESTREL_OPEN_F_CREATED, "O_F_CREATED"},
    {KESTREL_OPEN_F_UPPER_LAYER, "FD_UPPER_LAYER"},
    {KESTREL_OPEN_F_LOWER_LAYER, "FD_LOWER_LAYER"},
};

}  // namespace

std::optional<FlagTable> FileFlagTable(kestrel_flag_set set) {
  switch (set) {
    case KFS_OPEN_FLAGS:
      return FlagTable{kOpenBits, kOpenAccess, O_ACCMODE};
    case KFS_AT_FLAGS:
      return FlagTable{kAtBits, {}, 0};
    case KFS_RENAME_FLAGS:
      return FlagTable{kRenameBits, {}, 0};
    case KFS_MOUNT_FLAGS:
      return FlagTable{kMountBits, {}, 0};
    case KFS_UMOUNT_FLAGS:
      return FlagTable{kUmountBits, {}, 0};
    case KFS_MEMFD_FLAGS:
      return FlagTable{kMemfdBits, {}, 0};
    case KFS_PROT_FLAGS:
      return FlagTable{kProtBits, {}, 0};
    case KFS_MMAP_FLAGS:
      return FlagTable{kMmapBits, kMmapType, MAP_TYPE};
    case KFS_FCNTL_CMD:
      return FlagTable{{}, kFcntlCommands, 0};
    case KFS_DUP3_FLAGS:
      return FlagTable{kDup3Bits, {}, 0};
    case KFS_CHMOD_MODE:
      return FlagTable{kChmodModeBits, {}, 0};
    case KFS_CREAT_FLAGS:
      return FlagTable{kCreatBits, {}, 0};
    case KFS_OPEN_FACTS:
      return FlagTable{kOpenFactsBits, {}, 0};
    default:
      return std::nullopt;
  }
}

}  // namespace kestrel::engine
