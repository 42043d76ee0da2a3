// Names the descriptor family's flag sets print: Falco's names for the same
// bits (file_flags, epoll_create1_flags, close_range_flags, pidfd_open_flags,
// flock_flags).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <linux/close_range.h>
#include <poll.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/file.h>
#include <sys/inotify.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>

#include "engine/decode/flag_sets.h"

namespace kestrel::engine {
namespace {

TEST(DescriptorFlagsTest, CreateFlagsPrintAsOpenFlags) {
  EXPECT_EQ(FormatFlags(KFS_FD_CREATE_FLAGS, O_CLOEXEC | O_NONBLOCK), "O_NONBLOCK|O_CLOEXEC");
  EXPECT_EQ(FormatFlags(KFS_FD_CREATE_FLAGS, O_DIRECT), "O_DIRECT");
  EXPECT_EQ(FormatFlags(KFS_FD_CREATE_FLAGS, EFD_CLOEXEC | EFD_NONBLOCK), "O_NONBLOCK|O_CLOEXEC");
  EXPECT_EQ(FormatFlags(KFS_FD_CREATE_FLAGS, SFD_CLOEXEC), "O_CLOEXEC");
  EXPECT_EQ(FormatFlags(KFS_FD_CREATE_FLAGS, TFD_NONBLOCK), "O_NONBLOCK");
  EXPECT_EQ(FormatFlags(KFS_FD_CREATE_FLAGS, IN_CLOEXEC), "O_CLOEXEC");
  EXPECT_EQ(FormatFlags(KFS_FD_CREATE_FLAGS, O_CLOEXEC | O_RDWR), "O_CLOEXEC|0x2");
  EXPECT_EQ(FormatFlags(KFS_FD_CREATE_FLAGS, 0), "0");
}

TEST(DescriptorFlagsTest, EpollCloseRangePidfdAndFlock) {
  EXPECT_EQ(FormatFlags(KFS_EPOLL_CREATE1_FLAGS, EPOLL_CLOEXEC), "EPOLL_CLOEXEC");
  EXPECT_EQ(FormatFlags(KFS_CLOSE_RANGE_FLAGS, CLOSE_RANGE_CLOEXEC), "CLOSE_RANGE_CLOEXEC");
  EXPECT_EQ(FormatFlags(KFS_CLOSE_RANGE_FLAGS, CLOSE_RANGE_UNSHARE | CLOSE_RANGE_CLOEXEC),
            "CLOSE_RANGE_UNSHARE|CLOSE_RANGE_CLOEXEC");
  EXPECT_EQ(FormatFlags(KFS_PIDFD_OPEN_FLAGS, O_NONBLOCK), "PIDFD_NONBLOCK");
  EXPECT_EQ(FormatFlags(KFS_PIDFD_OPEN_FLAGS, O_EXCL), "PIDFD_THREAD");
  EXPECT_EQ(FormatFlags(KFS_FLOCK_OPERATION, LOCK_EX | LOCK_NB), "LOCK_EX|LOCK_NB");
  EXPECT_EQ(FormatFlags(KFS_FLOCK_OPERATION, LOCK_UN), "LOCK_UN");
  EXPECT_EQ(FormatFlags(KFS_FLOCK_OPERATION, LOCK_SH), "LOCK_SH");
}

TEST(DescriptorFlagsTest, PollEvents) {
  EXPECT_EQ(FormatFlags(KFS_POLL_EVENTS, POLLIN), "POLLIN");
  EXPECT_EQ(FormatFlags(KFS_POLL_EVENTS, POLLOUT | POLLWRNORM), "POLLOUT|POLLWRNORM");
  EXPECT_EQ(FormatFlags(KFS_POLL_EVENTS, POLLIN | POLLRDHUP | POLLHUP), "POLLIN|POLLRDHUP|POLLHUP");
  EXPECT_EQ(FormatFlags(KFS_POLL_EVENTS, 0), "0");
}

}  // namespace
}  // namespace kestrel::engine
