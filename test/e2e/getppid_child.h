// A child process that calls getppid in a loop under a known comm, so a
// capture filtered on its pid sees exact, predictable events.
#ifndef KESTREL_TEST_E2E_GETPPID_CHILD_H_
#define KESTREL_TEST_E2E_GETPPID_CHILD_H_

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

}  // namespace kestrel::e2e

#endif  // KESTREL_TEST_E2E_GETPPID_CHILD_H_
