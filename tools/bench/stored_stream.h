// A stream of real probe records kept in memory, so the engine's benchmarks
// replay the same events as fast as the engine can take them, with no probe
// and no ring in the measured loop.
#ifndef KESTREL_TOOLS_BENCH_STORED_STREAM_H_
#define KESTREL_TOOLS_BENCH_STORED_STREAM_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"

namespace kestrel::bench {

struct StoredStream {
  std::vector<uint8_t> bytes;     // records back to back, as they left the ring
  std::vector<uint32_t> offsets;  // where each record starts in `bytes`
  uint64_t drops = 0;             // records the probe lost while recording
};

// Loads the probe, captures the engine's state syscalls plus a mixed load
// (a shell loop spawning commands; opens, reads, closes, fcntl dups,
// loopback sockets, a syscall with no specific event) run by children, and keeps the first
// `events` records (or what arrived within a time cap). With `cgroups`,
// that many children run the syscall mix, each in a cgroup of its own
// (ContainerCgroups: named as a Docker container's with `as_containers`),
// the shell loop in the first.
absl::StatusOr<StoredStream> RecordMixedStream(uint64_t events, int cgroups = 0,
                                               bool as_containers = false);

}  // namespace kestrel::bench

#endif  // KESTREL_TOOLS_BENCH_STORED_STREAM_H_
