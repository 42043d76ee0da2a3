// The two ring kinds (README, "Ring kinds": MPSC rings, and BPF ring buffers
// with PMAN_OPT_RINGBUF), each shared by all CPUs and one per CPU: tests of
// the transport run once in each of the four.
#ifndef KESTREL_TEST_INTEGRATION_RING_KINDS_H_
#define KESTREL_TEST_INTEGRATION_RING_KINDS_H_

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "internal/libpman_bench.h"  // PMAN_OPT_RINGBUF
#include "libpman.h"

namespace kestrel::testing {

struct RingKind {
  const char* name;
  uint32_t cpus_per_buffer;
  uint32_t flags;  // PMAN_OPT_*
};

inline constexpr RingKind kRingKinds[] = {
    {"SharedMpscRing", 0, 0},
    {"PerCpuMpscRings", 1, 0},
    {"SharedBpfRingBuffer", 0, PMAN_OPT_RINGBUF},
    {"PerCpuBpfRingBuffers", 1, PMAN_OPT_RINGBUF},
};

inline std::string RingKindName(const ::testing::TestParamInfo<RingKind>& info) {
  return info.param.name;
}

}  // namespace kestrel::testing

#define KESTREL_INSTANTIATE_RING_KINDS(suite)                                                 \
  INSTANTIATE_TEST_SUITE_P(Kinds, suite, ::testing::ValuesIn(::kestrel::testing::kRingKinds), \
                           ::kestrel::testing::RingKindName)

#endif  // KESTREL_TEST_INTEGRATION_RING_KINDS_H_
