// Probe::MeasureSettingsCosts: the numbers behind the choice of mmapped
// settings and of their storage mode, measured on the live probe. Kept apart from probe.cpp because
// it is measurement, not life cycle.
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstring>
#include <vector>

#include "absl/strings/str_format.h"
#include "errno_status.h"
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

struct FunctionSize {
  uint32_t xlated_insns;
  uint32_t jited_bytes;
};

// The size of a program's main function alone: the kernel reports where
// each function starts in the verified program (func_info) and each one's
// JIT-ed length, so the out-of-line subprograms can be left out.
absl::StatusOr<FunctionSize> MainFunctionSize(int prog_fd) {
  bpf_prog_info info{};
  uint32_t len = sizeof(info);
  if (bpf_obj_get_info_by_fd(prog_fd, &info, &len) != 0) {
    return ErrnoStatus(errno, "reading the program info");
  }
  std::vector<bpf_func_info> funcs(info.nr_func_info);
  std::vector<uint32_t> jited_lens(info.nr_jited_func_lens);
  const uint32_t xlated_total = info.xlated_prog_len / 8;
  const uint32_t jited_total = info.jited_prog_len;
  info = bpf_prog_info{};
  info.nr_func_info = funcs.size();
  info.func_info_rec_size = sizeof(bpf_func_info);
  info.func_info = reinterpret_cast<uintptr_t>(funcs.data());
  info.nr_jited_func_lens = jited_lens.size();
  info.jited_func_lens = reinterpret_cast<uintptr_t>(jited_lens.data());
  len = sizeof(info);
  if (bpf_obj_get_info_by_fd(prog_fd, &info, &len) != 0) {
    return ErrnoStatus(errno, "reading the program's functions");
  }
  FunctionSize size{xlated_total, jited_total};
  // Function 0 is the main one and starts at 0; the next start ends it.
  for (const bpf_func_info& f : funcs) {
    if (f.insn_off > 0) size.xlated_insns = std::min(size.xlated_insns, f.insn_off);
  }
  if (!jited_lens.empty()) size.jited_bytes = jited_lens[0];
  return size;
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

  // The same one-byte toggle the way a non-mmapped map must be changed:
  // the whole control map value goes through bpf(BPF_MAP_UPDATE_ELEM).
  const int fd = bpf_map__fd(object_->control_map());
  const kestrel_control_block* block = object_->control_block();
  std::vector<uint8_t> value(ControlMapValueSize(object_->storage()));
  const size_t offset = offsetof(kestrel_control_block, interesting_syscalls);
  const uint32_t zero = 0;
  int update_error = 0;
  costs.map_update_ns = NsPerCall(iterations, [&](uint32_t i) {
    std::memcpy(value.data(), block, value.size());
    value[offset + kUnusedSyscallId] = i & 1;
    if (bpf_map_update_elem(fd, &zero, value.data(), BPF_ANY) != 0) update_error = errno;
  });
  if (update_error != 0) return ErrnoStatus(update_error, "bpf_map_update_elem on the control map");
  if (absl::Status s = control_->MarkSyscall(kUnusedSyscallId, was_on); !s.ok()) return s;

  absl::StatusOr<FunctionSize> size =
      MainFunctionSize(bpf_program__fd(object_->sys_exit_program()));
  if (!size.ok()) return size.status();
  costs.xlated_insns = size->xlated_insns;
  costs.jited_bytes = size->jited_bytes;
  return costs;
}

}  // namespace kestrel::pman
