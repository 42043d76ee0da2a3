// Kernel features the probes need beyond BTF itself. Consulted when a load
// fails, so that a kernel too old gets one sentence naming what is missing
// instead of a libbpf log, and a load that succeeds pays nothing.
#ifndef KESTREL_LIBPMAN_KERNEL_FEATURES_H_
#define KESTREL_LIBPMAN_KERNEL_FEATURES_H_

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace kestrel::pman {

// Whether the running kernel's BTF declares a function named `name` (kfuncs
// are found this way). An error when the kernel BTF cannot be read.
absl::StatusOr<bool> KernelBtfHasFunction(const char* name);

// OK when every kfunc the probes call exists; otherwise an EOPNOTSUPP
// status naming the first missing one and the kernel version it needs. Reads
// the kernel BTF once.
absl::Status CheckProbeKernelFeatures();

}  // namespace kestrel::pman

#endif  // KESTREL_LIBPMAN_KERNEL_FEATURES_H_
