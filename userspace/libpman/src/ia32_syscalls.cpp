#include "ia32_syscalls.h"

#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cerrno>

namespace kestrel::pman {
namespace {

// getpid in the i386 ABI.
constexpr long kIa32Getpid = 20;

bool ProbeIa32() {
  const pid_t child = fork();
  if (child < 0) return true;  // cannot tell: keep the test
  if (child == 0) {
    // The embedding program's own SIGSEGV handler must not catch the
    // refusal, and the refusal must leave no core dump behind.
    signal(SIGSEGV, SIG_DFL);
    prctl(PR_SET_DUMPABLE, 0);
    long ret = kIa32Getpid;
    asm volatile("int $0x80" : "+a"(ret) : : "memory");
    _exit(ret > 0 ? 0 : 1);
  }
  int status = 0;
  while (waitpid(child, &status, 0) < 0) {
    if (errno != EINTR) return true;
  }
  return !(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV);
}

}  // namespace

bool KernelRunsIa32Syscalls() {
  static const bool runs = ProbeIa32();
  return runs;
}

}  // namespace kestrel::pman
