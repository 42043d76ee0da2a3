// Descriptor events: calls that create descriptors (pipe, eventfd, signalfd,
// timerfd, inotify, epoll, pidfd, open_by_handle_at), close or lock them
// (close_range, flock), and wait on them (epoll_wait, select, poll, ppoll). Each is
// triggered for real, succeeding and failing, and every parameter checked.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/file.h>
#include <sys/inotify.h>
#include <sys/resource.h>
#include <sys/select.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "file_events_fixture.h"

namespace kestrel::testing {
namespace {

#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif
#ifndef PIDFD_NONBLOCK
#define PIDFD_NONBLOCK O_NONBLOCK
#endif

class DescriptorEventsTest : public FileEventsTest {
 protected:
  // Runs `call` with RLIMIT_NOFILE's soft limit at 0, so that any call that
  // needs a new descriptor fails with EMFILE; returns its result.
  static long WithoutFreeDescriptors(long (*call)()) {
    struct rlimit saved {};
    EXPECT_EQ(getrlimit(RLIMIT_NOFILE, &saved), 0);
    struct rlimit none = saved;
    none.rlim_cur = 0;
    EXPECT_EQ(setrlimit(RLIMIT_NOFILE, &none), 0);
    const long res = call();
    EXPECT_EQ(setrlimit(RLIMIT_NOFILE, &saved), 0);
    return res;
  }

  static uint64_t Ino(int fd) {
    struct stat st {};
    EXPECT_EQ(fstat(fd, &st), 0);
    return st.st_ino;
  }
};

TEST_F(DescriptorEventsTest, PipeSuccessAndFailure) {
  auto session = Start({SYS_pipe});
  ASSERT_NE(session, nullptr);
  int fds[2] = {-1, -1};
  ASSERT_EQ(syscall(SYS_pipe, fds), 0);
  ASSERT_EQ(syscall(SYS_pipe, reinterpret_cast<int*>(8)), -1);
  ASSERT_EQ(errno, EFAULT);
  const uint64_t ino = Ino(fds[0]);
  EXPECT_EQ(Ino(fds[1]), ino);
  close(fds[0]);
  close(fds[1]);

  const std::vector<OwnedRecord> got = Drain(*session, KESTREL_EVT_PIPE);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].Event().Int("res"), 0);
  EXPECT_EQ(got[0].Event().Int("fd1"), fds[0]);
  EXPECT_EQ(got[0].Event().Int("fd2"), fds[1]);
  EXPECT_EQ(got[0].Event().Int("ino"), static_cast<int64_t>(ino));
  EXPECT_EQ(got[1].Event().Int("res"), -EFAULT);
  EXPECT_EQ(got[1].Event().Int("fd1"), -1);
  EXPECT_EQ(got[1].Event().Int("fd2"), -1);
  EXPECT_EQ(got[1].Event().Int("ino"), 0);
}

TEST_F(DescriptorEventsTest, Pipe2SuccessAndFailure) {
  auto session = Start({SYS_pipe2});
  ASSERT_NE(session, nullptr);
  int fds[2] = {-1, -1};
  int unused[2] = {-1, -1};
  ASSERT_EQ(syscall(SYS_pipe2, fds, O_CLOEXEC | O_NONBLOCK), 0);
  ASSERT_EQ(syscall(SYS_pipe2, unused, O_RDWR), -1);
  ASSERT_EQ(errno, EINVAL);
  const uint64_t ino = Ino(fds[1]);
  close(fds[0]);
  close(fds[1]);

  const std::vector<OwnedRecord> got = Drain(*session, KESTREL_EVT_PIPE2);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].Event().Int("res"), 0);
  EXPECT_EQ(got[0].Event().Int("fd1"), fds[0]);
  EXPECT_EQ(got[0].Event().Int("fd2"), fds[1]);
  EXPECT_EQ(got[0].Event().Int("ino"), static_cast<int64_t>(ino));
  EXPECT_EQ(got[0].Event().Int("flags"), O_CLOEXEC | O_NONBLOCK);
  EXPECT_EQ(got[1].Event().Int("res"), -EINVAL);
  EXPECT_EQ(got[1].Event().Int("fd1"), -1);
  EXPECT_EQ(got[1].Event().Int("fd2"), -1);
  EXPECT_EQ(got[1].Event().Int("ino"), 0);
  EXPECT_EQ(got[1].Event().Int("flags"), O_RDWR);
}

TEST_F(DescriptorEventsTest, EventfdSuccessAndFailure) {
  auto session = Start({SYS_eventfd, SYS_eventfd2});
  ASSERT_NE(session, nullptr);
  const int fd = static_cast<int>(syscall(SYS_eventfd, 7));
  ASSERT_GE(fd, 0);
  ASSERT_EQ(WithoutFreeDescriptors([] { return syscall(SYS_eventfd, 3); }), -1);
  const int fd2 = static_cast<int>(syscall(SYS_eventfd2, 5, EFD_CLOEXEC | EFD_NONBLOCK));
  ASSERT_GE(fd2, 0);
  ASSERT_EQ(syscall(SYS_eventfd2, 5, O_DIRECT), -1);
  ASSERT_EQ(errno, EINVAL);
  close(fd);
  close(fd2);

  auto got = DrainByType(*session);
  const std::vector<OwnedRecord>& v1 = got[KESTREL_EVT_EVENTFD];
  const std::vector<OwnedRecord>& v2 = got[KESTREL_EVT_EVENTFD2];
  ASSERT_EQ(v1.size(), 2u);
  ASSERT_EQ(v2.size(), 2u);
  EXPECT_EQ(v1[0].Event().Int("res"), fd);
  EXPECT_EQ(v1[0].Event().Int("initval"), 7);
  EXPECT_EQ(v1[0].Event().Int("flags"), 0);
  EXPECT_EQ(v1[1].Event().Int("res"), -EMFILE);
  EXPECT_EQ(v1[1].Event().Int("initval"), 3);
  EXPECT_EQ(v1[1].Event().Int("flags"), 0);
  EXPECT_EQ(v2[0].Event().Int("res"), fd2);
  EXPECT_EQ(v2[0].Event().Int("flags"), EFD_CLOEXEC | EFD_NONBLOCK);
  EXPECT_EQ(v2[0].Event().Int("initval"), 5);
  EXPECT_EQ(v2[1].Event().Int("res"), -EINVAL);
  EXPECT_EQ(v2[1].Event().Int("flags"), O_DIRECT);
  EXPECT_EQ(v2[1].Event().Int("initval"), 5);
}

TEST_F(DescriptorEventsTest, SignalfdSuccessAndFailure) {
  sigset_t mask;
  sigemptyset(&mask);
  sigaddset(&mask, SIGUSR1);
  sigaddset(&mask, SIGUSR2);
  constexpr int64_t kMaskBits = (1 << (SIGUSR1 - 1)) | (1 << (SIGUSR2 - 1));
  auto session = Start({SYS_signalfd, SYS_signalfd4});
  ASSERT_NE(session, nullptr);
  const int fd = static_cast<int>(syscall(SYS_signalfd, -1, &mask, 8));
  ASSERT_GE(fd, 0);
  ASSERT_EQ(syscall(SYS_signalfd, -1, &mask, 4), -1);  // sizemask != sizeof(sigset)
  ASSERT_EQ(errno, EINVAL);
  const int fd4 = static_cast<int>(syscall(SYS_signalfd4, -1, &mask, 8, SFD_CLOEXEC));
  ASSERT_GE(fd4, 0);
  // Updating an existing signalfd returns it.
  ASSERT_EQ(syscall(SYS_signalfd4, fd4, &mask, 8, 0), fd4);
  ASSERT_EQ(syscall(SYS_signalfd4, -1, &mask, 8, O_DIRECT), -1);
  ASSERT_EQ(errno, EINVAL);
  close(fd);
  close(fd4);

  auto got = DrainByType(*session);
  const std::vector<OwnedRecord>& v1 = got[KESTREL_EVT_SIGNALFD];
  const std::vector<OwnedRecord>& v4 = got[KESTREL_EVT_SIGNALFD4];
  ASSERT_EQ(v1.size(), 2u);
  ASSERT_EQ(v4.size(), 3u);
  EXPECT_EQ(v1[0].Event().Int("res"), fd);
  EXPECT_EQ(v1[0].Event().Int("fd"), -1);
  EXPECT_EQ(v1[0].Event().Int("mask"), kMaskBits);
  EXPECT_EQ(v1[0].Event().Int("flags"), 0);
  EXPECT_EQ(v1[1].Event().Int("res"), -EINVAL);
  EXPECT_EQ(v1[1].Event().Int("fd"), -1);
  EXPECT_EQ(v1[1].Event().Int("mask"), kMaskBits);
  EXPECT_EQ(v1[1].Event().Int("flags"), 0);
  EXPECT_EQ(v4[0].Event().Int("res"), fd4);
  EXPECT_EQ(v4[0].Event().Int("flags"), SFD_CLOEXEC);
  EXPECT_EQ(v4[0].Event().Int("fd"), -1);
  EXPECT_EQ(v4[0].Event().Int("mask"), kMaskBits);
  EXPECT_EQ(v4[1].Event().Int("res"), fd4);
  EXPECT_EQ(v4[1].Event().Int("flags"), 0);
  EXPECT_EQ(v4[1].Event().Int("fd"), fd4);
  EXPECT_EQ(v4[1].Event().Int("mask"), kMaskBits);
  EXPECT_EQ(v4[2].Event().Int("res"), -EINVAL);
  EXPECT_EQ(v4[2].Event().Int("flags"), O_DIRECT);
  EXPECT_EQ(v4[2].Event().Int("fd"), -1);
  EXPECT_EQ(v4[2].Event().Int("mask"), kMaskBits);
}

TEST_F(DescriptorEventsTest, TimerfdCreateSuccessAndFailure) {
  auto session = Start({SYS_timerfd_create});
  ASSERT_NE(session, nullptr);
  const int fd =
      static_cast<int>(syscall(SYS_timerfd_create, CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK));
  ASSERT_GE(fd, 0);
  ASSERT_EQ(syscall(SYS_timerfd_create, CLOCK_PROCESS_CPUTIME_ID, 0), -1);
  ASSERT_EQ(errno, EINVAL);
  close(fd);

  const std::vector<OwnedRecord> got = Drain(*session, KESTREL_EVT_TIMERFD_CREATE);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].Event().Int("res"), fd);
  EXPECT_EQ(got[0].Event().Int("clockid"), CLOCK_MONOTONIC);
  EXPECT_EQ(got[0].Event().Int("flags"), TFD_CLOEXEC | TFD_NONBLOCK);
  EXPECT_EQ(got[1].Event().Int("res"), -EINVAL);
  EXPECT_EQ(got[1].Event().Int("clockid"), CLOCK_PROCESS_CPUTIME_ID);
  EXPECT_EQ(got[1].Event().Int("flags"), 0);
}

TEST_F(DescriptorEventsTest, InotifyInitSuccessAndFailure) {
  auto session = Start({SYS_inotify_init, SYS_inotify_init1});
  ASSERT_NE(session, nullptr);
  const int fd = static_cast<int>(syscall(SYS_inotify_init));
  ASSERT_GE(fd, 0);
  ASSERT_EQ(WithoutFreeDescriptors([] { return syscall(SYS_inotify_init); }), -1);
  const int fd1 = static_cast<int>(syscall(SYS_inotify_init1, IN_CLOEXEC | IN_NONBLOCK));
  ASSERT_GE(fd1, 0);
  ASSERT_EQ(syscall(SYS_inotify_init1, O_DIRECT), -1);
  ASSERT_EQ(errno, EINVAL);
  close(fd);
  close(fd1);

  auto got = DrainByType(*session);
  const std::vector<OwnedRecord>& v0 = got[KESTREL_EVT_INOTIFY_INIT];
  const std::vector<OwnedRecord>& v1 = got[KESTREL_EVT_INOTIFY_INIT1];
  ASSERT_EQ(v0.size(), 2u);
  ASSERT_EQ(v1.size(), 2u);
  EXPECT_EQ(v0[0].Event().Int("res"), fd);
  EXPECT_EQ(v0[0].Event().Int("flags"), 0);
  EXPECT_EQ(v0[1].Event().Int("res"), -EMFILE);
  EXPECT_EQ(v0[1].Event().Int("flags"), 0);
  EXPECT_EQ(v1[0].Event().Int("res"), fd1);
  EXPECT_EQ(v1[0].Event().Int("flags"), IN_CLOEXEC | IN_NONBLOCK);
  EXPECT_EQ(v1[1].Event().Int("res"), -EINVAL);
  EXPECT_EQ(v1[1].Event().Int("flags"), O_DIRECT);
}

TEST_F(DescriptorEventsTest, EpollCreateSuccessAndFailure) {
  auto session = Start({SYS_epoll_create, SYS_epoll_create1});
  ASSERT_NE(session, nullptr);
  const int fd = static_cast<int>(syscall(SYS_epoll_create, 4));
  ASSERT_GE(fd, 0);
  ASSERT_EQ(syscall(SYS_epoll_create, -1), -1);
  ASSERT_EQ(errno, EINVAL);
  const int fd1 = static_cast<int>(syscall(SYS_epoll_create1, EPOLL_CLOEXEC));
  ASSERT_GE(fd1, 0);
  ASSERT_EQ(syscall(SYS_epoll_create1, O_NONBLOCK), -1);
  ASSERT_EQ(errno, EINVAL);
  close(fd);
  close(fd1);

  auto got = DrainByType(*session);
  const std::vector<OwnedRecord>& v0 = got[KESTREL_EVT_EPOLL_CREATE];
  const std::vector<OwnedRecord>& v1 = got[KESTREL_EVT_EPOLL_CREATE1];
  ASSERT_EQ(v0.size(), 2u);
  ASSERT_EQ(v1.size(), 2u);
  EXPECT_EQ(v0[0].Event().Int("res"), fd);
  EXPECT_EQ(v0[0].Event().Int("size"), 4);
  EXPECT_EQ(v0[1].Event().Int("res"), -EINVAL);
  EXPECT_EQ(v0[1].Event().Int("size"), -1);
  EXPECT_EQ(v1[0].Event().Int("res"), fd1);
  EXPECT_EQ(v1[0].Event().Int("flags"), EPOLL_CLOEXEC);
  EXPECT_EQ(v1[1].Event().Int("res"), -EINVAL);
  EXPECT_EQ(v1[1].Event().Int("flags"), O_NONBLOCK);
}

TEST_F(DescriptorEventsTest, CloseRangeSuccessAndFailure) {
  const int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(dup2(fd, 800), 800);
  ASSERT_EQ(dup2(fd, 801), 801);
  ASSERT_EQ(dup2(fd, 802), 802);
  auto session = Start({SYS_close_range});
  ASSERT_NE(session, nullptr);
  ASSERT_EQ(syscall(SYS_close_range, 802u, 802u, CLOSE_RANGE_CLOEXEC), 0);
  ASSERT_EQ(syscall(SYS_close_range, 800u, 801u, 0u), 0);
  ASSERT_EQ(syscall(SYS_close_range, 810u, 805u, 0u), -1);
  ASSERT_EQ(errno, EINVAL);
  EXPECT_EQ(fcntl(800, F_GETFD), -1);
  EXPECT_EQ(fcntl(801, F_GETFD), -1);
  EXPECT_EQ(fcntl(802, F_GETFD), FD_CLOEXEC);
  close(802);
  close(fd);

  const std::vector<OwnedRecord> got = Drain(*session, KESTREL_EVT_CLOSE_RANGE);
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[0].Event().Int("res"), 0);
  EXPECT_EQ(got[0].Event().Int("first"), 802);
  EXPECT_EQ(got[0].Event().Int("last"), 802);
  EXPECT_EQ(got[0].Event().Int("flags"), CLOSE_RANGE_CLOEXEC);
  EXPECT_EQ(got[1].Event().Int("res"), 0);
  EXPECT_EQ(got[1].Event().Int("first"), 800);
  EXPECT_EQ(got[1].Event().Int("last"), 801);
  EXPECT_EQ(got[1].Event().Int("flags"), 0);
  EXPECT_EQ(got[2].Event().Int("res"), -EINVAL);
  EXPECT_EQ(got[2].Event().Int("first"), 810);
  EXPECT_EQ(got[2].Event().Int("last"), 805);
  EXPECT_EQ(got[2].Event().Int("flags"), 0);
}

TEST_F(DescriptorEventsTest, PidfdOpenSuccessAndFailure) {
  auto session = Start({SYS_pidfd_open});
  ASSERT_NE(session, nullptr);
  const int fd = static_cast<int>(syscall(SYS_pidfd_open, getpid(), PIDFD_NONBLOCK));
  ASSERT_GE(fd, 0);
  ASSERT_EQ(syscall(SYS_pidfd_open, -5, 0), -1);
  ASSERT_EQ(errno, EINVAL);
  close(fd);

  const std::vector<OwnedRecord> got = Drain(*session, KESTREL_EVT_PIDFD_OPEN);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].Event().Int("fd"), fd);
  EXPECT_EQ(got[0].Event().Int("pid"), getpid());
  EXPECT_EQ(got[0].Event().Int("flags"), PIDFD_NONBLOCK);
  EXPECT_EQ(got[1].Event().Int("fd"), -EINVAL);
  EXPECT_EQ(got[1].Event().Int("pid"), -5);
  EXPECT_EQ(got[1].Event().Int("flags"), 0);
}

TEST_F(DescriptorEventsTest, PidfdGetfdSuccessAndFailure) {
  const std::string path = dir_.Touch("target");
  const int target = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(target, 0);
  const int pidfd = static_cast<int>(syscall(SYS_pidfd_open, getpid(), 0));
  ASSERT_GE(pidfd, 0);
  auto session = Start({SYS_pidfd_getfd});
  ASSERT_NE(session, nullptr);
  const int copy = static_cast<int>(syscall(SYS_pidfd_getfd, pidfd, target, 0));
  ASSERT_GE(copy, 0);
  ASSERT_EQ(syscall(SYS_pidfd_getfd, pidfd, 9999, 0), -1);
  ASSERT_EQ(errno, EBADF);
  close(copy);
  close(pidfd);
  close(target);

  const struct stat st = Stat(path);
  const std::vector<OwnedRecord> got = Drain(*session, KESTREL_EVT_PIDFD_GETFD);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].Event().Int("fd"), copy);
  EXPECT_EQ(got[0].Event().Int("pid_fd"), pidfd);
  EXPECT_EQ(got[0].Event().Int("target_fd"), target);
  EXPECT_EQ(got[0].Event().Int("flags"), 0);
  EXPECT_EQ(got[0].Event().String("path"), path);
  EXPECT_EQ(got[0].Event().Int("dev"), KernelDev(st.st_dev));
  EXPECT_EQ(got[0].Event().Int("ino"), static_cast<int64_t>(st.st_ino));
  EXPECT_EQ(got[1].Event().Int("fd"), -EBADF);
  EXPECT_EQ(got[1].Event().Int("pid_fd"), pidfd);
  EXPECT_EQ(got[1].Event().Int("target_fd"), 9999);
  EXPECT_EQ(got[1].Event().Int("flags"), 0);
  EXPECT_EQ(got[1].Event().String("path"), "");
  EXPECT_EQ(got[1].Event().Int("dev"), 0);
  EXPECT_EQ(got[1].Event().Int("ino"), 0);
}

TEST_F(DescriptorEventsTest, OpenByHandleAtSuccessAndFailure) {
  const std::string path = dir_.Touch("handled");
  constexpr unsigned kHandleBytes = MAX_HANDLE_SZ;
  std::unique_ptr<char[]> storage(new char[sizeof(struct file_handle) + kHandleBytes]);
  auto* handle = reinterpret_cast<struct file_handle*>(storage.get());
  handle->handle_bytes = kHandleBytes;
  int mount_id = 0;
  ASSERT_EQ(name_to_handle_at(AT_FDCWD, path.c_str(), handle, &mount_id, 0), 0);
  const int mountfd = open(dir_.path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  ASSERT_GE(mountfd, 0);
  auto session = Start({SYS_open_by_handle_at});
  ASSERT_NE(session, nullptr);
  const int fd =
      static_cast<int>(syscall(SYS_open_by_handle_at, mountfd, handle, O_RDONLY | O_CLOEXEC));
  ASSERT_GE(fd, 0);
  ASSERT_EQ(syscall(SYS_open_by_handle_at, -1, handle, O_RDONLY), -1);
  ASSERT_EQ(errno, EBADF);
  close(fd);
  close(mountfd);

  const struct stat st = Stat(path);
  const std::vector<OwnedRecord> got = Drain(*session, KESTREL_EVT_OPEN_BY_HANDLE_AT);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].Event().Int("fd"), fd);
  EXPECT_EQ(got[0].Event().Int("mountfd"), mountfd);
  EXPECT_EQ(got[0].Event().Int("flags"), O_RDONLY | O_CLOEXEC);
  EXPECT_EQ(got[0].Event().String("path"), path);
  EXPECT_EQ(got[0].Event().Int("dev"), KernelDev(st.st_dev));
  EXPECT_EQ(got[0].Event().Int("ino"), static_cast<int64_t>(st.st_ino));
  EXPECT_EQ(got[1].Event().Int("fd"), -EBADF);
  EXPECT_EQ(got[1].Event().Int("mountfd"), -1);
  EXPECT_EQ(got[1].Event().Int("flags"), O_RDONLY);
  EXPECT_EQ(got[1].Event().String("path"), "");
  EXPECT_EQ(got[1].Event().Int("dev"), 0);
  EXPECT_EQ(got[1].Event().Int("ino"), 0);
}

TEST_F(DescriptorEventsTest, FlockSuccessAndFailure) {
  const std::string path = dir_.Touch("locked");
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  auto session = Start({SYS_flock});
  ASSERT_NE(session, nullptr);
  ASSERT_EQ(syscall(SYS_flock, fd, LOCK_EX | LOCK_NB), 0);
  ASSERT_EQ(syscall(SYS_flock, fd, LOCK_UN), 0);
  ASSERT_EQ(syscall(SYS_flock, -1, LOCK_SH), -1);
  ASSERT_EQ(errno, EBADF);
  close(fd);

  const std::vector<OwnedRecord> got = Drain(*session, KESTREL_EVT_FLOCK);
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[0].Event().Int("res"), 0);
  EXPECT_EQ(got[0].Event().Int("fd"), fd);
  EXPECT_EQ(got[0].Event().Int("operation"), LOCK_EX | LOCK_NB);
  EXPECT_EQ(got[1].Event().Int("res"), 0);
  EXPECT_EQ(got[1].Event().Int("fd"), fd);
  EXPECT_EQ(got[1].Event().Int("operation"), LOCK_UN);
  EXPECT_EQ(got[2].Event().Int("res"), -EBADF);
  EXPECT_EQ(got[2].Event().Int("fd"), -1);
  EXPECT_EQ(got[2].Event().Int("operation"), LOCK_SH);
}

TEST_F(DescriptorEventsTest, EpollWaitSuccessAndFailure) {
  const int epfd = epoll_create1(EPOLL_CLOEXEC);
  ASSERT_GE(epfd, 0);
  const int efd = eventfd(1, EFD_CLOEXEC);  // readable from the start
  ASSERT_GE(efd, 0);
  struct epoll_event ev {};
  ev.events = EPOLLIN;
  ASSERT_EQ(epoll_ctl(epfd, EPOLL_CTL_ADD, efd, &ev), 0);
  auto session = Start({SYS_epoll_wait});
  ASSERT_NE(session, nullptr);
  struct epoll_event out[4];
  ASSERT_EQ(syscall(SYS_epoll_wait, epfd, out, 4, 0), 1);
  ASSERT_EQ(syscall(SYS_epoll_wait, epfd, out, -1, 0), -1);
  ASSERT_EQ(errno, EINVAL);
  close(efd);
  close(epfd);

  const std::vector<OwnedRecord> got = Drain(*session, KESTREL_EVT_EPOLL_WAIT);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].Event().Int("res"), 1);
  EXPECT_EQ(got[0].Event().Int("maxevents"), 4);
  EXPECT_EQ(got[1].Event().Int("res"), -EINVAL);
  EXPECT_EQ(got[1].Event().Int("maxevents"), -1);
}

TEST_F(DescriptorEventsTest, SelectSuccessAndFailure) {
  const int efd = eventfd(1, EFD_CLOEXEC);  // readable from the start
  ASSERT_GE(efd, 0);
  auto session = Start({SYS_select});
  ASSERT_NE(session, nullptr);
  fd_set readable;
  FD_ZERO(&readable);
  FD_SET(efd, &readable);
  struct timeval now {};
  ASSERT_EQ(syscall(SYS_select, efd + 1, &readable, nullptr, nullptr, &now), 1);
  ASSERT_EQ(syscall(SYS_select, -1, nullptr, nullptr, nullptr, &now), -1);
  ASSERT_EQ(errno, EINVAL);
  close(efd);

  const std::vector<OwnedRecord> got = Drain(*session, KESTREL_EVT_SELECT);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].Event().Int("res"), 1);
  EXPECT_EQ(got[1].Event().Int("res"), -EINVAL);
}

// Three descriptors in a known state: an eventfd with a count (readable),
// a pipe's empty read end (nothing) and its write end (writable).
class PolledDescriptors {
 public:
  PolledDescriptors() {
    efd_ = eventfd(1, EFD_CLOEXEC);
    EXPECT_GE(efd_, 0);
    EXPECT_EQ(pipe2(pipe_, O_CLOEXEC), 0);
    fds_[0] = {efd_, POLLIN, 0};
    fds_[1] = {pipe_[0], POLLIN, 0};
    fds_[2] = {pipe_[1], POLLOUT, 0};
  }
  ~PolledDescriptors() {
    close(efd_);
    close(pipe_[0]);
    close(pipe_[1]);
  }
  struct pollfd* fds() {
    return fds_;
  }

  // What the record must hold after the kernel filled revents: only the
  // requested events (and POLLERR/POLLHUP) are returned.
  std::vector<engine::PolledFd> Expected() const {
    return {{efd_, POLLIN}, {pipe_[0], 0}, {pipe_[1], POLLOUT}};
  }

 private:
  int efd_ = -1;
  int pipe_[2] = {-1, -1};
  struct pollfd fds_[3] = {};
};

void ExpectFdList(const engine::DecodedEvent& event, const std::vector<engine::PolledFd>& want) {
  const std::optional<std::vector<engine::PolledFd>> got = event.FdList("fds");
  ASSERT_TRUE(got.has_value());
  ASSERT_EQ(got->size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ((*got)[i].fd, want[i].fd) << i;
    EXPECT_EQ((*got)[i].events, want[i].events) << i;
  }
}

TEST_F(DescriptorEventsTest, PollSuccessAndFailure) {
  PolledDescriptors polled;
  auto session = Start({SYS_poll});
  ASSERT_NE(session, nullptr);
  ASSERT_EQ(syscall(SYS_poll, polled.fds(), 3, 0), 2);
  ASSERT_EQ(syscall(SYS_poll, reinterpret_cast<struct pollfd*>(8), 1, -1), -1);
  ASSERT_EQ(errno, EFAULT);

  const std::vector<OwnedRecord> got = Drain(*session, KESTREL_EVT_POLL);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].Event().Int("res"), 2);
  EXPECT_EQ(got[0].Event().Int("timeout"), 0);
  ExpectFdList(got[0].Event(), polled.Expected());
  EXPECT_EQ(got[0].header().flags & KESTREL_RECORD_TRUNCATED, 0u);
  EXPECT_EQ(got[1].Event().Int("res"), -EFAULT);
  EXPECT_EQ(got[1].Event().Int("timeout"), -1);
  ExpectFdList(got[1].Event(), {});
}

// ppoll rewrites the caller's timespec with the time left before it returns,
// so the record (read at exit) holds what the struct holds after the call.
int64_t Nanoseconds(const struct timespec& ts) {
  return static_cast<int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

TEST_F(DescriptorEventsTest, PpollSuccessAndFailure) {
  PolledDescriptors polled;
  sigset_t mask;
  sigemptyset(&mask);
  sigaddset(&mask, SIGUSR1);
  constexpr int64_t kMaskBits = 1 << (SIGUSR1 - 1);
  constexpr struct timespec kTimeout = {5, 250};
  // The descriptors are ready: ppoll returns at once whatever the timeout.
  struct timespec left_ok = kTimeout;
  struct timespec left_failed = kTimeout;
  auto session = Start({SYS_ppoll});
  ASSERT_NE(session, nullptr);
  ASSERT_EQ(syscall(SYS_ppoll, polled.fds(), 3, &left_ok, &mask, 8), 2);
  ASSERT_EQ(syscall(SYS_ppoll, polled.fds(), 3, nullptr, nullptr, 8), 2);
  ASSERT_EQ(syscall(SYS_ppoll, reinterpret_cast<struct pollfd*>(8), 1, &left_failed, nullptr, 8),
            -1);
  ASSERT_EQ(errno, EFAULT);
  EXPECT_GT(Nanoseconds(left_ok), 0);
  EXPECT_LE(Nanoseconds(left_ok), Nanoseconds(kTimeout));

  const std::vector<OwnedRecord> got = Drain(*session, KESTREL_EVT_PPOLL);
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[0].Event().Int("res"), 2);
  ExpectFdList(got[0].Event(), polled.Expected());
  EXPECT_EQ(got[0].Event().Int("timeout"), Nanoseconds(left_ok));
  EXPECT_EQ(got[0].Event().Int("sigmask"), kMaskBits);
  EXPECT_EQ(got[1].Event().Int("res"), 2);
  ExpectFdList(got[1].Event(), polled.Expected());
  EXPECT_EQ(got[1].Event().Int("timeout"), std::nullopt);  // none: wait forever
  EXPECT_EQ(got[1].Event().Int("sigmask"), 0);
  EXPECT_EQ(got[2].Event().Int("res"), -EFAULT);
  ExpectFdList(got[2].Event(), {});
  EXPECT_EQ(got[2].Event().Int("timeout"), Nanoseconds(left_failed));
  EXPECT_EQ(got[2].Event().Int("sigmask"), 0);
}

}  // namespace
}  // namespace kestrel::testing
