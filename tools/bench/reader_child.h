// Measures real readers from the outside: a child `kestrel capture`, its
// resident memory while its ring fills and its CPU use while idle, and a
// child `kestrel run`'s resident memory at rest.
#ifndef KESTREL_TOOLS_BENCH_READER_CHILD_H_
#define KESTREL_TOOLS_BENCH_READER_CHILD_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"

namespace kestrel::bench {

// Peak VmRSS (VmHWM) in bytes of a reader capturing this process's getppid
// calls while the bench writes well over a ring's worth of records.
absl::StatusOr<uint64_t> MeasureReaderPeakRss(uint64_t ring_bytes, uint32_t cpus_per_buffer);

// CPU use of an attached reader with nothing to read, in % of one CPU.
absl::StatusOr<double> MeasureIdleReaderCpuPercent();

// Resident memory of `kestrel run -r rules_path`, in bytes: at rest (VmRSS
// two seconds after it attached, nothing traced by the bench meanwhile) and
// its peak so far (VmHWM, the probe's load included).
struct RunRss {
  uint64_t at_rest = 0;
  uint64_t peak = 0;
};
absl::StatusOr<RunRss> MeasureRunAtRestRss(const std::string& rules_path);

}  // namespace kestrel::bench

#endif  // KESTREL_TOOLS_BENCH_READER_CHILD_H_
