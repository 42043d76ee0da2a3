// The bench's ceiling: the minimal producer program (bpf/bench_producer.bpf.c)
// loaded with its own rings, read with the same zero-copy reader libpman
// uses (lent through internal/libpman_bench.h), so the gap to the probe is
// the probe's own cost.
#ifndef KESTREL_TOOLS_BENCH_RAW_RING_PRODUCER_H_
#define KESTREL_TOOLS_BENCH_RAW_RING_PRODUCER_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "internal/libpman_bench.h"

struct kestrel_bench_producer;

namespace kestrel::bench {

class RawRingProducer {
 public:
  // Rings of `ring_bytes`, shared by all CPUs or one per CPU; each getppid
  // of this process writes `batch` 64-byte records.
  static absl::StatusOr<std::unique_ptr<RawRingProducer>> Start(bool per_cpu, uint64_t ring_bytes,
                                                                uint32_t batch);
  ~RawRingProducer();

  // Reads everything now in the rings; returns how many records.
  uint64_t Drain();

  absl::StatusOr<uint64_t> Dropped() const;
  uint64_t memory_bytes() const { return memory_bytes_; }

 private:
  RawRingProducer() = default;
  RawRingProducer(const RawRingProducer&) = delete;
  RawRingProducer& operator=(const RawRingProducer&) = delete;

  kestrel_bench_producer* skel_ = nullptr;
  std::vector<int> ring_fds_;
  std::vector<pman_bench_ring_reader*> readers_;  // owned
  uint64_t memory_bytes_ = 0;
};

}  // namespace kestrel::bench

#endif  // KESTREL_TOOLS_BENCH_RAW_RING_PRODUCER_H_
