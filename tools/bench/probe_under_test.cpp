#include "bench/probe_under_test.h"

#include <unistd.h>

#include <cstdio>
#include <thread>

#include "absl/strings/str_format.h"
#include "bench/syscall_loop.h"

namespace kestrel::bench {
namespace {

// libpman's warnings and errors, on stderr as every `kestrel` verb prints them.
void LogToStderr(void*, pman_log_level level, const char* message) {
  if (level >= PMAN_LOG_WARNING) std::fprintf(stderr, "kestrel bench: %s\n", message);
}

}  // namespace
namespace {

absl::Status PmanStatus(int rc, const char* what) {
  if (rc >= 0) return absl::OkStatus();
  return absl::ErrnoToStatus(-rc, what);
}

// Records drained per turn before the steering thread gets the handle back.
constexpr int kDrainBatch = 4096;

}  // namespace

class ProbeUnderTest::SteeringLock {
 public:
  explicit SteeringLock(ProbeUnderTest& p) : p_(p) {
    p_.steering_.fetch_add(1);
    p_.mu_.lock();
  }
  ~SteeringLock() {
    p_.mu_.unlock();
    p_.steering_.fetch_sub(1);
  }

 private:
  ProbeUnderTest& p_;
};

absl::StatusOr<std::unique_ptr<ProbeUnderTest>> ProbeUnderTest::Load(uint32_t cpus_per_buffer,
                                                                     uint64_t buffer_bytes,
                                                                     uint32_t flags) {
  pman_options options;
  pman_default_options(&options);
  options.cpus_per_buffer = cpus_per_buffer;
  options.flags = flags;
  options.buffer_bytes = buffer_bytes;
  options.log_fn = LogToStderr;
  pman_handle* raw = nullptr;
  if (absl::Status s = PmanStatus(pman_init(&options, &raw), "pman_init"); !s.ok()) return s;
  std::unique_ptr<ProbeUnderTest> probe(new ProbeUnderTest(raw));
  if (absl::Status s = PmanStatus(pman_open(raw), "pman_open"); !s.ok()) return s;
  if (absl::Status s = PmanStatus(pman_load(raw), "pman_load"); !s.ok()) return s;
  kestrel_capture_settings settings{};
  if (absl::Status s = PmanStatus(pman_get_capture_settings(raw, &settings), "reading settings");
      !s.ok()) {
    return s;
  }
  // The bench is the traced process here, not the tracer to hide.
  settings.own_tgid = 0;
  settings.target_tgid = static_cast<uint32_t>(getpid());
  if (absl::Status s =
          PmanStatus(pman_update_capture_settings(raw, &settings), "publishing settings");
      !s.ok()) {
    return s;
  }
  return probe;
}

ProbeUnderTest::~ProbeUnderTest() {
  StopDrain();
  pman_close(handle_);
}

absl::Status ProbeUnderTest::Capture(const std::vector<uint32_t>& ids) {
  std::vector<uint8_t> table(pman_syscall_table_size(), 0);
  for (uint32_t id : ids) table.at(id) = 1;
  SteeringLock lock(*this);
  return PmanStatus(pman_enforce_sc_set(handle_, table.data(), table.size()),
                    "setting the interesting syscalls");
}

absl::Status ProbeUnderTest::Attach() {
  SteeringLock lock(*this);
  return PmanStatus(pman_attach(handle_), "pman_attach");
}

absl::Status ProbeUnderTest::Detach() {
  SteeringLock lock(*this);
  return PmanStatus(pman_detach(handle_), "pman_detach");
}

absl::StatusOr<kestrel_cpu_counters> ProbeUnderTest::Totals() {
  pman_stats stats{};
  SteeringLock lock(*this);
  if (absl::Status s = PmanStatus(pman_get_stats(handle_, &stats, nullptr, 0), "pman_get_stats");
      !s.ok()) {
    return s;
  }
  return stats.total;
}

uint32_t ProbeUnderTest::n_rings() {
  pman_stats stats{};
  SteeringLock lock(*this);
  if (pman_get_stats(handle_, &stats, nullptr, 0) != 0) return 0;
  return stats.n_rings;
}

void ProbeUnderTest::DrainStep() {
  while (steering_.load() != 0) std::this_thread::yield();
  std::lock_guard<std::mutex> lock(mu_);
  uint64_t n = 0;
  for (; n < kDrainBatch; ++n) {
    void* record = nullptr;
    int16_t ring = 0;
    if (pman_consume_first_event(handle_, &record, &ring) != 0 || record == nullptr) break;
    tally_.Add(*static_cast<const kestrel_record_header*>(record), kGetppidId);
    if (sink_) sink_(static_cast<const kestrel_record_header*>(record));
  }
  consumed_.fetch_add(n, std::memory_order_relaxed);
  if (n == 0) pman_wait_for_events(handle_, kIdleWaitMs);
}

void ProbeUnderTest::SetRecordSink(std::function<void(const kestrel_record_header*)> sink) {
  SteeringLock lock(*this);
  sink_ = std::move(sink);
}

RecordTally ProbeUnderTest::Tally() {
  SteeringLock lock(*this);
  return tally_;
}

void ProbeUnderTest::StartDrain(DrainPlacement placement) {
  StopDrain();
  drain_ = std::make_unique<DrainThread>([this] { DrainStep(); }, placement);
}

void ProbeUnderTest::StopDrain() { drain_.reset(); }

double ProbeUnderTest::DrainCpuSeconds() const { return drain_ ? drain_->CpuSeconds() : 0; }

}  // namespace kestrel::bench
