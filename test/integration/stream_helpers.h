// Small helpers shared by the tests that read the record stream while
// threads on chosen CPUs produce it.
#ifndef KESTREL_TEST_INTEGRATION_STREAM_HELPERS_H_
#define KESTREL_TEST_INTEGRATION_STREAM_HELPERS_H_

#include <gtest/gtest.h>
#include <sched.h>

#include <optional>
#include <string>

#include "engine/decode/record_view.h"
#include "libpman.h"

namespace kestrel::testing {

// Pins the calling thread to `cpu`.
inline bool PinToCpu(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  return sched_setaffinity(0, sizeof(set), &set) == 0;
}

// Consumes the next record into `out` (a view into the ring, valid until
// the next call). False when the rings are empty; a record that does not
// parse fails the test and is skipped.
inline bool NextRecord(pman_handle* h, std::optional<engine::RecordView>& out) {
  for (;;) {
    void* record = nullptr;
    int16_t ring = -1;
    EXPECT_EQ(pman_consume_first_event(h, &record, &ring), 0);
    if (record == nullptr) return false;
    absl::StatusOr<engine::RecordView> view =
        engine::RecordView::Parse(record, KESTREL_MAX_RECORD_BYTES);
    EXPECT_TRUE(view.ok()) << view.status();
    if (!view.ok()) continue;
    out.emplace(*view);
    return true;
  }
}

// Names the cpus_per_buffer parameter of topology-parameterized tests.
inline std::string TopologyName(const ::testing::TestParamInfo<uint32_t>& info) {
  return info.param == 0 ? "SharedRing" : "RingPerCpu";
}

}  // namespace kestrel::testing

#endif  // KESTREL_TEST_INTEGRATION_STREAM_HELPERS_H_
