#include "preflight.h"

#include <linux/capability.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdint>

#include "absl/strings/str_format.h"

namespace kestrel::cli {
namespace {

constexpr char kKernelBtf[] = "/sys/kernel/btf/vmlinux";

bool HasEffectiveCapability(int cap) {
  __user_cap_header_struct header{};
  __user_cap_data_struct data[2]{};
  header.version = _LINUX_CAPABILITY_VERSION_3;
  if (syscall(SYS_capget, &header, data) != 0) return false;
  return (data[cap / 32].effective >> (cap % 32)) & 1U;
}

}  // namespace

absl::Status CheckCanLoadProbe() {
  if (access(kKernelBtf, R_OK) != 0) {
    return absl::FailedPreconditionError(absl::StrFormat(
        "kernel BTF not found at %s: Kestrel's CO-RE probe needs a kernel built with "
        "CONFIG_DEBUG_INFO_BTF=y",
        kKernelBtf));
  }
  const bool admin = HasEffectiveCapability(CAP_SYS_ADMIN);
  if (!admin && !(HasEffectiveCapability(CAP_BPF) && HasEffectiveCapability(CAP_PERFMON))) {
    return absl::PermissionDeniedError(
        "not privileged: loading the probe needs CAP_BPF and CAP_PERFMON (run as root, or "
        "grant them with setcap cap_bpf,cap_perfmon+ep)");
  }
  return absl::OkStatus();
}

}  // namespace kestrel::cli
