#include "agent/outputs/fd_write.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "absl/strings/str_cat.h"
#include "agent/outputs/delivery_failure.h"

namespace kestrel::agent::outputs {

absl::Status WriteAll(int fd, std::string_view data) {
  while (!data.empty()) {
    const ssize_t n = write(fd, data.data(), data.size());
    if (n < 0) {
      const int err = errno;
      if (err == EINTR) continue;
      if (err == EPIPE) {
        sigset_t pipe;
        sigemptyset(&pipe);
        sigaddset(&pipe, SIGPIPE);
        const struct timespec no_wait = {0, 0};
        sigtimedwait(&pipe, nullptr, &no_wait);
      }
      return DeliveryError(FailureCause::kWriteError, absl::StrCat("write: ", strerror(err)), err);
    }
    data.remove_prefix(static_cast<size_t>(n));
  }
  return absl::OkStatus();
}

}  // namespace kestrel::agent::outputs
