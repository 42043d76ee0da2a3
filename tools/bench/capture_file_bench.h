// `kestrel bench capture-file`: what capture files cost. The writer against
// printing (highest zero-drop rate of a live capture either way), the
// reader's rate on one core, and the bytes a record takes per zstd level.
#ifndef KESTREL_TOOLS_BENCH_CAPTURE_FILE_BENCH_H_
#define KESTREL_TOOLS_BENCH_CAPTURE_FILE_BENCH_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "bench/bench_report.h"

namespace kestrel::bench {

struct CaptureFileBenchOptions {
  int repetitions = 3;                // the report keeps the median
  uint64_t stream_events = 200'000;   // real records recorded once, then repeated
  uint64_t file_records = 3'000'000;  // records in the file the reader reads
  bool zero_drop = true;              // the live rows (load the probe, search rates)
};

// Rows: highest zero-drop rate printing to /dev/null and writing a capture
// file (-w), side by side, the second judged at >= 0.9 of the first; read
// rate (decompress + iterate) judged at >= 20 M records/s on one core;
// bytes per record and write rate for zstd levels 0 (stored), 1 (the
// default) and 3.
absl::StatusOr<BenchReport> RunCaptureFileBench(const CaptureFileBenchOptions& options);

}  // namespace kestrel::bench

#endif  // KESTREL_TOOLS_BENCH_CAPTURE_FILE_BENCH_H_
