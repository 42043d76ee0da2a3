#include "program_settle.h"

#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>

#include "errno_status.h"

namespace kestrel::pman {

absl::Status WaitForRunningPrograms() {
  // MEMBARRIER_CMD_GLOBAL is synchronize_rcu() behind a syscall: the one
  // grace period user space can wait for. nohz_full kernels refuse it.
  if (syscall(SYS_membarrier, MEMBARRIER_CMD_GLOBAL, 0, 0) != 0) {
    return ErrnoStatus(errno, "waiting for the probe's running programs (membarrier)");
  }
  return absl::OkStatus();
}

}  // namespace kestrel::pman
