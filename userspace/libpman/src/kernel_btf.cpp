#include "kernel_btf.h"

#include <fcntl.h>
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "absl/strings/str_format.h"

namespace kestrel::pman {
namespace {

constexpr char kKernelBtf[] = "/sys/kernel/btf/vmlinux";

const char* CustomBtfPath() {
  const char* path = std::getenv("KESTREL_BTF_PATH");
  return path != nullptr && *path != '\0' ? path : nullptr;
}

}  // namespace

const char* KernelBtfPath() {
  const char* custom = CustomBtfPath();
  return custom != nullptr ? custom : kKernelBtf;
}

absl::Status CheckKernelBtfReadable() {
  const char* custom = CustomBtfPath();
  if (custom != nullptr) {
    // Raw BTF starts with its magic, 0xeB9F in host order; an ELF file
    // (a vmlinux) carries it in a .BTF section, which libbpf finds.
    const int fd = open(custom, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      const int err = errno;
      return absl::FailedPreconditionError(absl::StrFormat(
          "kernel BTF not found at %s (KESTREL_BTF_PATH): %s", custom, strerror(err)));
    }
    unsigned char magic[4] = {};
    const ssize_t n = read(fd, magic, sizeof(magic));
    close(fd);
    const bool raw_btf = n >= 2 && magic[0] == 0x9f && magic[1] == 0xeb;
    const bool elf =
        n == 4 && magic[0] == 0x7f && magic[1] == 'E' && magic[2] == 'L' && magic[3] == 'F';
    if (raw_btf || elf) return absl::OkStatus();
    return absl::FailedPreconditionError(absl::StrFormat(
        "%s (KESTREL_BTF_PATH) is not a BTF file: neither raw BTF nor an ELF object", custom));
  }
  if (access(kKernelBtf, R_OK) == 0) return absl::OkStatus();
  return absl::FailedPreconditionError(absl::StrFormat(
      "kernel BTF not found at %s: Kestrel's CO-RE probe needs a kernel built with "
      "CONFIG_DEBUG_INFO_BTF=y, or a BTF file for this kernel named by KESTREL_BTF_PATH",
      kKernelBtf));
}

bpf_object_open_opts KernelBtfOpenOptions() {
  bpf_object_open_opts opts{};
  opts.sz = sizeof(opts);
  opts.btf_custom_path = CustomBtfPath();
  return opts;
}

}  // namespace kestrel::pman
