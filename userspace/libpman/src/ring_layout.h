// Which ring each CPU writes to, decided once at load time.
#ifndef KESTREL_LIBPMAN_RING_LAYOUT_H_
#define KESTREL_LIBPMAN_RING_LAYOUT_H_

#include <cstdint>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace kestrel::pman {

struct RingLayout {
  static constexpr uint32_t kNoRing = UINT32_MAX;

  uint32_t n_cpus = 0;           // possible CPUs
  uint32_t cpus_per_buffer = 0;  // resolved: 0 = all CPUs share ring 0
  uint32_t n_rings = 0;
  uint64_t ring_bytes = 0;
  std::vector<uint32_t> ring_of_cpu;  // kNoRing: this CPU was offline at load
  // MPSC rings (shared/mpsc_ring_format.h), or BPF ring buffers.
  bool mpsc = true;

  uint32_t RingOfCpu(uint32_t cpu) const { return ring_of_cpu[cpu]; }
  // CPUs in each ring's group (the last group may have fewer possible ones).
  uint32_t CpusPerRing() const { return cpus_per_buffer == 0 ? n_cpus : cpus_per_buffer; }
  uint32_t CpusWithRing() const;
};

// What `auto` resolves to on a machine with `n_cpus` possible CPUs. The
// numbers behind the choice are in the README ("Ring topology").
uint32_t AutoCpusPerBuffer(uint32_t n_cpus);

// Validates the requested topology and size for `n_cpus` possible CPUs.
// `online`, when given, has one entry per possible CPU: groups of CPUs with
// no online member get no ring.
// `ringbuf` makes the rings BPF ring buffers rather than MPSC rings.
absl::StatusOr<RingLayout> PlanRingLayout(uint32_t n_cpus, uint32_t cpus_per_buffer,
                                          uint64_t ring_bytes,
                                          const std::vector<bool>* online = nullptr,
                                          bool ringbuf = false);

// Parses a kernel CPU list such as "0-3,6,8-9" (the format of
// /sys/devices/system/cpu/online) into one flag per CPU below `n_cpus`.
absl::StatusOr<std::vector<bool>> ParseCpuList(std::string_view list, uint32_t n_cpus);

// Reads /sys/devices/system/cpu/online.
absl::StatusOr<std::vector<bool>> ReadOnlineCpus(uint32_t n_cpus);

}  // namespace kestrel::pman

#endif  // KESTREL_LIBPMAN_RING_LAYOUT_H_
