// The reference floors (bpf/bench_floor.bpf.c): an
// empty sys_exit hook, a hook that writes one 64-byte ringbuf record per
// syscall of one thread, drained by a consumer thread, and an empty program
// on the per-syscall exit tracepoints of a set of syscalls.
#ifndef KESTREL_TOOLS_BENCH_FLOOR_PROBE_H_
#define KESTREL_TOOLS_BENCH_FLOOR_PROBE_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "bench/drain_thread.h"

struct kestrel_bench_floor;
struct ring_buffer;
struct bpf_link;

namespace kestrel::bench {

class FloorProbe {
 public:
  static absl::StatusOr<std::unique_ptr<FloorProbe>> Load();
  ~FloorProbe();

  absl::Status AttachEmptyHook();
  // Records every syscall `tid` makes.
  absl::Status AttachRecordHook(uint32_t tid);
  // The empty program on syscalls:sys_exit_NAME for each of `names`
  // (tracefs must be mounted). Fails naming the first it cannot attach.
  absl::Status AttachSyscallExitTracepoints(const std::vector<std::string>& names);
  void Detach();

  void StartDrain(DrainPlacement placement);
  void StopDrain();
  uint64_t consumed() const { return consumed_.load(std::memory_order_relaxed); }

 private:
  FloorProbe() = default;
  absl::Status AttachProgram(bool record);
  static int OnRecord(void* ctx, void* data, size_t size);

  kestrel_bench_floor* skel_ = nullptr;
  ring_buffer* ring_ = nullptr;
  std::vector<bpf_link*> links_;
  std::atomic<uint64_t> consumed_{0};
  std::unique_ptr<DrainThread> drain_;
};

}  // namespace kestrel::bench

#endif  // KESTREL_TOOLS_BENCH_FLOOR_PROBE_H_
