// The reference floors (bpf/bench_floor.bpf.c): an
// empty sys_exit hook, and a hook that writes one 64-byte ringbuf record per
// syscall of one thread, drained by a consumer thread.
#ifndef KESTREL_TOOLS_BENCH_FLOOR_PROBE_H_
#define KESTREL_TOOLS_BENCH_FLOOR_PROBE_H_

#include <atomic>
#include <cstdint>
#include <memory>

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
  bpf_link* link_ = nullptr;
  std::atomic<uint64_t> consumed_{0};
  std::unique_ptr<DrainThread> drain_;
};

}  // namespace kestrel::bench

#endif  // KESTREL_TOOLS_BENCH_FLOOR_PROBE_H_
