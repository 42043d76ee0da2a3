#include "kestrel/common/target_process.h"

#include <signal.h>
#include <sys/types.h>

#include <cerrno>

#include "absl/strings/str_format.h"

namespace kestrel::cli {

void NoteMissingTargetProcess(std::string_view command, uint32_t pid) {
  if (pid == 0) return;
  // Signal 0 checks existence only; EPERM still means the process exists.
  if (kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH) return;
  absl::FPrintF(stderr,
                "%s: --pid %u: no such process exists yet; Kestrel captures it if it appears\n",
                command, pid);
}

}  // namespace kestrel::cli
