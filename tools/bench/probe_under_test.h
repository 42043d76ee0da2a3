// The Kestrel probe as the bench drives it: loaded through libpman, capturing
// only this process, drained by a consumer thread on a chosen CPU.
#ifndef KESTREL_TOOLS_BENCH_PROBE_UNDER_TEST_H_
#define KESTREL_TOOLS_BENCH_PROBE_UNDER_TEST_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "bench/drain_thread.h"
#include "bench/record_tally.h"
#include "libpman.h"

namespace kestrel::bench {

// The ring size the benches load the probe with, unless a row is about ring
// sizes.
inline constexpr uint64_t kBenchRingBytes = 8ULL << 20;

// Every record the probe counted as dropped, whatever the cause.
inline uint64_t AllDrops(const kestrel_cpu_counters& c) {
  return c.drops_ring_full + c.drops_no_ring + c.drops_too_large + c.drops_settings_busy;
}

class ProbeUnderTest {
 public:
  // Loads (not attaches) a probe with the given ring topology and
  // PMAN_OPT_* `flags`. Records are kept only for this process, bench
  // threads included.
  static absl::StatusOr<std::unique_ptr<ProbeUnderTest>> Load(uint32_t cpus_per_buffer,
                                                              uint64_t buffer_bytes,
                                                              uint32_t flags = 0);
  ~ProbeUnderTest();

  // Makes exactly `ids` interesting (empty: nothing is).
  absl::Status Capture(const std::vector<uint32_t>& ids);
  absl::Status Attach();
  absl::Status Detach();

  // The probe's counters summed over CPUs.
  absl::StatusOr<kestrel_cpu_counters> Totals();
  uint32_t n_rings();

  // Starts / stops the consumer thread. Records it reads are counted.
  void StartDrain(DrainPlacement placement);
  void StopDrain();
  uint64_t consumed() const { return consumed_.load(std::memory_order_relaxed); }
  // Hands every record the consumer reads to `sink` too (nullptr: none),
  // on the consumer thread; what a command does with its records.
  void SetRecordSink(std::function<void(const kestrel_record_header*)> sink);
  // What the consumer has read so far, by kind; generic records of getppid
  // (the load of the throughput windows) are counted apart.
  RecordTally Tally();
  // CPU time of the running consumer thread.
  double DrainCpuSeconds() const;

 private:
  explicit ProbeUnderTest(pman_handle* h) : handle_(h) {}
  void DrainStep();

  // libpman handles are single-threaded: the consumer thread and the
  // thread that steers the probe take turns. std::mutex is not fair and the
  // consumer relocks at once, so a steering thread announces itself and the
  // consumer stands back until it is done.
  std::mutex mu_;
  std::atomic<int> steering_{0};
  class SteeringLock;
  pman_handle* handle_;
  std::atomic<uint64_t> consumed_{0};
  RecordTally tally_;                                       // guarded by mu_
  std::function<void(const kestrel_record_header*)> sink_;  // guarded by mu_
  std::unique_ptr<DrainThread> drain_;
};

}  // namespace kestrel::bench

#endif  // KESTREL_TOOLS_BENCH_PROBE_UNDER_TEST_H_
