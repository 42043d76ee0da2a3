#include "map_freeze.h"

#include <bpf/bpf.h>
#include <sys/mman.h>

#include <cerrno>

#include "errno_status.h"

namespace kestrel::pman {
namespace {

absl::Status MapAt(int map_fd, void* addr, size_t len, int prot) {
  void* got = mmap(addr, len, prot, MAP_SHARED | MAP_FIXED_NOREPLACE, map_fd, 0);
  if (got == MAP_FAILED) return ErrnoStatus(errno, "re-mapping the settings");
  if (got != addr) {
    munmap(got, len);
    return ErrnoStatus(EEXIST, "re-mapping the settings at their old address");
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status FreezeMappedMap(int map_fd, void* addr, size_t len) {
  // The kernel refuses to freeze a map while a writable mapping exists.
  if (munmap(addr, len) != 0) return ErrnoStatus(errno, "unmapping the writable settings");
  if (bpf_map_freeze(map_fd) != 0) {
    const int error = errno;
    if (absl::Status s = MapAt(map_fd, addr, len, PROT_READ | PROT_WRITE); !s.ok()) return s;
    return ErrnoStatus(error,
                       "freezing the settings (another process may still map them writable)");
  }
  return MapAt(map_fd, addr, len, PROT_READ);
}

}  // namespace kestrel::pman
