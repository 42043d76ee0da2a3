#include "agent/probe/preflight.h"

#include <linux/capability.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdint>
#include <string>

#include "libpman.h"

namespace kestrel::agent {
namespace {

bool HasEffectiveCapability(int cap) {
  __user_cap_header_struct header{};
  __user_cap_data_struct data[2]{};
  header.version = _LINUX_CAPABILITY_VERSION_3;
  if (syscall(SYS_capget, &header, data) != 0) return false;
  return (data[cap / 32].effective >> (cap % 32)) & 1U;
}

}  // namespace

absl::Status CheckCanLoadProbe() {
  std::string btf_problem;
  const auto keep = [](void* ctx, pman_log_level, const char* message) {
    *static_cast<std::string*>(ctx) = message;
  };
  if (pman_check_kernel_btf(keep, &btf_problem) != 0) {
    return absl::FailedPreconditionError(btf_problem);
  }
  const bool admin = HasEffectiveCapability(CAP_SYS_ADMIN);
  if (!admin && !(HasEffectiveCapability(CAP_BPF) && HasEffectiveCapability(CAP_PERFMON))) {
    return absl::PermissionDeniedError(
        "not privileged: loading the probe needs CAP_BPF and CAP_PERFMON (run as root, or "
        "grant them with setcap cap_bpf,cap_perfmon+ep)");
  }
  return absl::OkStatus();
}

}  // namespace kestrel::agent
