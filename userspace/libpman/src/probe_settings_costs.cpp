// Probe::MeasureSettingsCosts: the numbers behind the choice of mmapped
// settings, measured on the live probe. Kept apart from probe.cpp because
// it is measurement, not life cycle.
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <chrono>
#include <cstring>
#include <vector>

#include "absl/strings/str_format.h"
#include "bss_view.h"
#include "errno_status.h"
#include "kestrel_probe.skel.h"
#include "probe.h"
#include "shared/syscall_table_x86_64.h"

namespace kestrel::pman {
namespace {

// An id no kernel assigns (the gap before io_uring's 424), so toggling it
// changes what the probe does for no real syscall.
constexpr uint32_t kUnusedSyscallId = 400;

template <typename Fn>
double NsPerCall(uint32_t iterations, Fn&& fn) {
  const auto start = std::chrono::steady_clock::now();
  for (uint32_t i = 0; i < iterations; ++i) fn(i);
  const auto ns =
      std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start);
  return ns.count() / iterations;
}

}  // namespace

absl::StatusOr<pman_settings_costs> Probe::MeasureSettingsCosts(uint32_t iterations) {
  if (absl::Status s = RequireLoaded("pman_measure_settings_costs"); !s.ok()) return s;
  pman_settings_costs costs{};
  const bool was_on = control_->IsInteresting(kUnusedSyscallId);
  absl::Status failed;
  costs.mmap_toggle_ns = NsPerCall(iterations, [&](uint32_t i) {
    if (absl::Status s = control_->MarkSyscall(kUnusedSyscallId, i & 1); !s.ok()) failed = s;
  });
  const kestrel_capture_settings settings = control_->GetSettings();
  costs.mmap_publish_ns = NsPerCall(iterations, [&](uint32_t) {
    if (absl::Status s = control_->UpdateSettings(settings); !s.ok()) failed = s;
  });
  if (!failed.ok()) return failed;

  // The same one-byte toggle the way a non-mmapped global must be changed:
  // the whole .bss value goes through bpf(BPF_MAP_UPDATE_ELEM).
  const int fd = bpf_map__fd(skel_->maps.bss);
  std::vector<uint8_t> value(BssValueSize());
  const size_t offset = ViewOfBss(skel_->bss).interesting - reinterpret_cast<uint8_t*>(skel_->bss);
  const uint32_t zero = 0;
  int update_error = 0;
  costs.map_update_ns = NsPerCall(iterations, [&](uint32_t i) {
    std::memcpy(value.data(), skel_->bss, value.size());
    value[offset + kUnusedSyscallId] = i & 1;
    if (bpf_map_update_elem(fd, &zero, value.data(), BPF_ANY) != 0) update_error = errno;
  });
  if (update_error != 0) return ErrnoStatus(update_error, "bpf_map_update_elem on .bss");
  if (absl::Status s = control_->MarkSyscall(kUnusedSyscallId, was_on); !s.ok()) return s;

  bpf_prog_info info{};
  uint32_t len = sizeof(info);
  if (bpf_obj_get_info_by_fd(bpf_program__fd(skel_->progs.kestrel_sys_exit), &info, &len) != 0) {
    return ErrnoStatus(errno, "reading the program info");
  }
  costs.xlated_insns = info.xlated_prog_len / 8;
  costs.jited_bytes = info.jited_prog_len;
  return costs;
}

}  // namespace kestrel::pman
