// Flag names of descriptor events, as Falco prints them (its file_flags,
// epoll_create1_flags, close_range_flags, pidfd_open_flags, flock_flags and
// poll_flags).
#include <fcntl.h>
#include <poll.h>
#include <sys/epoll.h>
#include <sys/file.h>

#include "flag_table.h"

// UAPI values of linux/close_range.h and linux/pidfd.h, which this system's
// libc headers do not all carry.
#ifndef CLOSE_RANGE_UNSHARE
#define CLOSE_RANGE_UNSHARE (1U << 1)
#endif
#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif
#ifndef PIDFD_NONBLOCK
#define PIDFD_NONBLOCK O_NONBLOCK
#endif
#ifndef PIDFD_THREAD
#define PIDFD_THREAD O_EXCL
#endif

namespace kestrel::engine {
namespace {

// pipe2, eventfd2, signalfd4, timerfd_create (TFD_* = O_*), inotify_init1
// (IN_* = O_*): each takes a subset of these; Falco names them all as open
// flags.
constexpr FlagName kFdCreateBits[] = {
    {O_DIRECT, "O_DIRECT"},
    {O_NONBLOCK, "O_NONBLOCK"},
    {O_CLOEXEC, "O_CLOEXEC"},
};

constexpr FlagName kEpollCreate1Bits[] = {{EPOLL_CLOEXEC, "EPOLL_CLOEXEC"}};

constexpr FlagName kCloseRangeBits[] = {
    {CLOSE_RANGE_UNSHARE, "CLOSE_RANGE_UNSHARE"},
    {CLOSE_RANGE_CLOEXEC, "CLOSE_RANGE_CLOEXEC"},
};

// PIDFD_THREAD (Linux 6.9) is newer than Falco's table.
constexpr FlagName kPidfdOpenBits[] = {
    {PIDFD_NONBLOCK, "PIDFD_NONBLOCK"},
    {PIDFD_THREAD, "PIDFD_THREAD"},
};

constexpr FlagName kFlockBits[] = {
    {LOCK_SH, "LOCK_SH"},
    {LOCK_EX, "LOCK_EX"},
    {LOCK_NB, "LOCK_NB"},
    {LOCK_UN, "LOCK_UN"},
};

// Falco's poll_flags order.
constexpr FlagName kPollBits[] = {
    {POLLIN, "POLLIN"},         {POLLPRI, "POLLPRI"},       {POLLOUT, "POLLOUT"},
    {POLLRDHUP, "POLLRDHUP"},   {POLLERR, "POLLERR"},       {POLLHUP, "POLLHUP"},
    {POLLNVAL, "POLLNVAL"},     {POLLRDNORM, "POLLRDNORM"}, {POLLRDBAND, "POLLRDBAND"},
    {POLLWRNORM, "POLLWRNORM"}, {POLLWRBAND, "POLLWRBAND"},
};

}  // namespace

std::optional<FlagTable> DescriptorFlagTable(kestrel_flag_set set) {
  switch (set) {
    case KFS_FD_CREATE_FLAGS:
      return FlagTable{kFdCreateBits, {}, 0};
    case KFS_EPOLL_CREATE1_FLAGS:
      return FlagTable{kEpollCreate1Bits, {}, 0};
    case KFS_CLOSE_RANGE_FLAGS:
      return FlagTable{kCloseRangeBits, {}, 0};
    case KFS_PIDFD_OPEN_FLAGS:
      return FlagTable{kPidfdOpenBits, {}, 0};
    case KFS_FLOCK_OPERATION:
      return FlagTable{kFlockBits, {}, 0};
    case KFS_POLL_EVENTS:
      return FlagTable{kPollBits, {}, 0};
    default:
      return std::nullopt;
  }
}

}  // namespace kestrel::engine
