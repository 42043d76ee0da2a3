// Measures the resident memory of a real reader: a child `kestrel capture`
// with one ring, while the bench fills that ring with records.
#ifndef KESTREL_CLI_BENCH_READER_MEMORY_H_
#define KESTREL_CLI_BENCH_READER_MEMORY_H_

#include <cstdint>

#include "absl/status/statusor.h"

namespace kestrel::cli::bench {

// Peak VmRSS (VmHWM) of the reader, in bytes.
absl::StatusOr<uint64_t> MeasureReaderPeakRss(uint64_t ring_bytes, uint32_t cpus_per_buffer);

}  // namespace kestrel::cli::bench

#endif  // KESTREL_CLI_BENCH_READER_MEMORY_H_
