// Flag names of file events.
#include <fcntl.h>

#include "flag_table.h"

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

}  // namespace

std::optional<FlagTable> FileFlagTable(kestrel_flag_set set) {
  switch (set) {
    case KFS_OPEN_FLAGS:
      return FlagTable{kOpenBits, kOpenAccess, O_ACCMODE};
    case KFS_AT_FLAGS:
      return FlagTable{kAtBits, {}, 0};
    default:
      return std::nullopt;
  }
}

}  // namespace kestrel::engine
