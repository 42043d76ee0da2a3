// Children that call getppid, so a capture filtered on their pid sees
// exact, predictable events: one looping under a known comm, one making a
// fixed number of calls and exiting.
#ifndef KESTREL_TEST_E2E_GETPPID_CHILD_H_
#define KESTREL_TEST_E2E_GETPPID_CHILD_H_

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

namespace kestrel::e2e {

inline constexpr char kGetppidChildComm[] = "e2e-getppid";

class GetppidChild {
 public:
  GetppidChild() {
    pid_ = fork();
    if (pid_ == 0) {
      prctl(PR_SET_NAME, kGetppidChildComm);
      for (;;) {
        syscall(SYS_getppid);
        usleep(2000);
      }
    }
  }
  ~GetppidChild() {
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
  }
  GetppidChild(const GetppidChild&) = delete;
  GetppidChild& operator=(const GetppidChild&) = delete;

  pid_t pid() const { return pid_; }

 private:
  pid_t pid_ = -1;
};

// Forks a child that calls getppid `n` times and exits; returns its pid
// once it has been reaped.
inline pid_t ChildCallingGetppid(int n) {
  const pid_t child = fork();
  if (child == 0) {
    for (int i = 0; i < n; ++i) syscall(SYS_getppid);
    _exit(0);
  }
  int status = 0;
  EXPECT_EQ(waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  return child;
}

}  // namespace kestrel::e2e

#endif  // KESTREL_TEST_E2E_GETPPID_CHILD_H_
