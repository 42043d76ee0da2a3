// Where the probes' CO-RE relocations read the kernel's types from. A
// kernel that does not expose /sys/kernel/btf/vmlinux can still run the
// probe with a BTF file made for it (BTFHub's, or `pahole --btf_encode`
// output), named by KESTREL_BTF_PATH.
#ifndef KESTREL_LIBPMAN_KERNEL_BTF_H_
#define KESTREL_LIBPMAN_KERNEL_BTF_H_

#include <bpf/libbpf.h>

#include "absl/status/status.h"

namespace kestrel::pman {

// $KESTREL_BTF_PATH when set and not empty, else /sys/kernel/btf/vmlinux.
const char* KernelBtfPath();

// OK when the BTF file can be read; otherwise one sentence naming the file
// and, when it came from KESTREL_BTF_PATH, the variable.
absl::Status CheckKernelBtfReadable();

// Object open options that point libbpf at KESTREL_BTF_PATH when it is set
// (NULL custom path otherwise: libbpf finds the kernel's own).
bpf_object_open_opts KernelBtfOpenOptions();

}  // namespace kestrel::pman

#endif  // KESTREL_LIBPMAN_KERNEL_BTF_H_
