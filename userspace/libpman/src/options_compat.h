// pman_options grows at its end; callers say how much of it they know in
// struct_size. This turns whatever they passed into a full struct.
#ifndef KESTREL_LIBPMAN_OPTIONS_COMPAT_H_
#define KESTREL_LIBPMAN_OPTIONS_COMPAT_H_

#include <cstddef>

#include "libpman.h"

namespace kestrel::pman {

// The size of pman_options in the first release of ABI 1: anything smaller
// cannot be a real caller's struct.
inline constexpr size_t kOptionsV1Size = offsetof(pman_options, flags);

// Copies the first struct_size bytes of `given` over the defaults. Reads no
// byte past what the caller declared. A struct_size below kOptionsV1Size is
// passed through for Probe::Create to reject.
pman_options CompleteOptions(const pman_options* given);

}  // namespace kestrel::pman

#endif  // KESTREL_LIBPMAN_OPTIONS_COMPAT_H_
