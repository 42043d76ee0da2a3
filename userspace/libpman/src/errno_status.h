// absl::Status values that remember the errno they came from, so the C ABI
// can return the exact negative errno the kernel gave.
#ifndef KESTREL_LIBPMAN_ERRNO_STATUS_H_
#define KESTREL_LIBPMAN_ERRNO_STATUS_H_

#include <string>

#include "absl/status/status.h"

namespace kestrel::pman {

// A status for a failed call that set `error` (a positive errno).
absl::Status ErrnoStatus(int error, const std::string& message);

// The positive errno carried by `status`, or one derived from its code.
int StatusToErrno(const absl::Status& status);

}  // namespace kestrel::pman

#endif  // KESTREL_LIBPMAN_ERRNO_STATUS_H_
