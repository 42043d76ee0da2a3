// Writing a whole buffer to a descriptor from a channel's thread, where
// SIGPIPE is blocked: a reader gone is an EPIPE error, and the signal it
// left pending is taken back so it never reaches the process later.
#ifndef KESTREL_AGENT_OUTPUTS_FD_WRITE_H_
#define KESTREL_AGENT_OUTPUTS_FD_WRITE_H_

#include <string_view>

#include "absl/status/status.h"

namespace kestrel::agent::outputs {

// Writes all of `data` to `fd`, retrying short writes and EINTR; an error
// is a DeliveryError, a write error with its errno.
absl::Status WriteAll(int fd, std::string_view data);

}  // namespace kestrel::agent::outputs

#endif  // KESTREL_AGENT_OUTPUTS_FD_WRITE_H_
