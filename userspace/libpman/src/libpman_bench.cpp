// The internal C ABI of internal/libpman_bench.h that needs no probe handle:
// libpman's ring reader and memlock figure, lent to the bench. (The
// handle's pman_measure_settings_costs is in libpman.cpp beside the other
// handle calls.)
#include <cerrno>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "c_abi_guard.h"
#include "internal/libpman_bench.h"
#include "logger.h"
#include "map_memlock.h"
#include "ring_reader.h"

struct pman_bench_ring_reader {
  kestrel::pman::RingReader reader;
};

extern "C" {

int pman_bench_ring_reader_open(int ring_fd, uint64_t ring_bytes, pman_log_fn log_fn, void* log_ctx,
                                struct pman_bench_ring_reader** out) {
  if (out == nullptr || ring_fd < 0) return -EINVAL;
  *out = nullptr;
  const kestrel::pman::Logger logger(log_fn, log_ctx);
  return kestrel::pman::GuardedCall(logger, [&]() -> absl::Status {
    absl::StatusOr<kestrel::pman::RingReader> reader =
        kestrel::pman::RingReader::Map(ring_fd, ring_bytes);
    if (!reader.ok()) return reader.status();
    *out = new pman_bench_ring_reader{*std::move(reader)};
    return absl::OkStatus();
  });
}

uint64_t pman_bench_ring_reader_drain(struct pman_bench_ring_reader* r) {
  if (r == nullptr) return 0;
  uint64_t n = 0;
  while (r->reader.Peek() != nullptr) {
    r->reader.Release();
    ++n;
  }
  return n;
}

void pman_bench_ring_reader_close(struct pman_bench_ring_reader* r) { delete r; }

int pman_bench_map_memlock_bytes(int map_fd, pman_log_fn log_fn, void* log_ctx, uint64_t* out) {
  if (out == nullptr || map_fd < 0) return -EINVAL;
  const kestrel::pman::Logger logger(log_fn, log_ctx);
  return kestrel::pman::GuardedCall(logger, [&]() -> absl::Status {
    absl::StatusOr<uint64_t> bytes = kestrel::pman::MapMemlockBytes(map_fd);
    if (!bytes.ok()) return bytes.status();
    *out = *bytes;
    return absl::OkStatus();
  });
}

}  // extern "C"
