#include "kernel_features.h"

#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <linux/btf.h>

#include <cerrno>
#include <memory>

#include "absl/strings/str_format.h"
#include "errno_status.h"

namespace kestrel::pman {
namespace {

// The kfuncs the probe objects call, with the release that added them.
struct RequiredKfunc {
  const char* name;
  const char* since;
};
constexpr RequiredKfunc kRequiredKfuncs[] = {
    {"bpf_rdonly_cast", "Linux 6.2"},  // helpers/kernel_view.h
};

struct BtfFree {
  void operator()(btf* b) const { btf__free(b); }
};

}  // namespace

absl::StatusOr<bool> KernelBtfHasFunction(const char* name) {
  std::unique_ptr<btf, BtfFree> vmlinux(btf__load_vmlinux_btf());
  if (vmlinux == nullptr) {
    return ErrnoStatus(errno, "reading the kernel's BTF (/sys/kernel/btf/vmlinux)");
  }
  return btf__find_by_name_kind(vmlinux.get(), name, BTF_KIND_FUNC) >= 0;
}

absl::Status CheckProbeKernelFeatures() {
  for (const RequiredKfunc& kfunc : kRequiredKfuncs) {
    absl::StatusOr<bool> has = KernelBtfHasFunction(kfunc.name);
    if (!has.ok()) return has.status();
    if (!*has) {
      return ErrnoStatus(EOPNOTSUPP,
                         absl::StrFormat("this kernel lacks the kfunc %s that the probe calls "
                                         "(%s or later is needed)",
                                         kfunc.name, kfunc.since));
    }
  }
  return absl::OkStatus();
}

}  // namespace kestrel::pman
