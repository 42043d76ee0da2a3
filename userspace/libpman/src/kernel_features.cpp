#include "kernel_features.h"

#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <linux/btf.h>

#include <cerrno>
#include <memory>

#include "absl/strings/str_format.h"
#include "errno_status.h"
#include "kernel_btf.h"

namespace kestrel::pman {
namespace {

// The kfuncs the probe objects call, with the release that added them.
struct RequiredKfunc {
  const char* name;
  const char* since;
};
constexpr RequiredKfunc kRequiredKfuncs[] = {
    {"bpf_rdonly_cast", "Linux 6.2"},  // helpers/base/kernel_view.h
};

struct BtfFree {
  void operator()(btf* b) const { btf__free(b); }
};
using BtfPtr = std::unique_ptr<btf, BtfFree>;

absl::StatusOr<BtfPtr> LoadKernelBtf() {
  BtfPtr vmlinux(btf__parse(KernelBtfPath(), nullptr));
  if (vmlinux == nullptr) {
    return ErrnoStatus(errno, absl::StrFormat("reading the kernel's BTF (%s)", KernelBtfPath()));
  }
  return vmlinux;
}

bool HasFunction(const btf* vmlinux, const char* name) {
  return btf__find_by_name_kind(vmlinux, name, BTF_KIND_FUNC) >= 0;
}

}  // namespace

absl::StatusOr<bool> KernelBtfHasFunction(const char* name) {
  absl::StatusOr<BtfPtr> vmlinux = LoadKernelBtf();
  if (!vmlinux.ok()) return vmlinux.status();
  return HasFunction(vmlinux->get(), name);
}

absl::Status CheckProbeKernelFeatures() {
  absl::StatusOr<BtfPtr> vmlinux = LoadKernelBtf();
  if (!vmlinux.ok()) return vmlinux.status();
  for (const RequiredKfunc& kfunc : kRequiredKfuncs) {
    if (!HasFunction(vmlinux->get(), kfunc.name)) {
      return ErrnoStatus(EOPNOTSUPP,
                         absl::StrFormat("this kernel lacks the kfunc %s that the probe calls "
                                         "(%s or later is needed)",
                                         kfunc.name, kfunc.since));
    }
  }
  return absl::OkStatus();
}

}  // namespace kestrel::pman
