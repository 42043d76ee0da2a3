#include "bench/syscall_loop.h"

#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <vector>

#include "bench/bench_stats.h"

namespace kestrel::bench {
namespace {

// Direct syscalls: no libc wrapper may cache or skip them.
inline void Iterate(Workload w) {
  if (w == Workload::kGetppid) {
    syscall(SYS_getppid);
    return;
  }
  const long fd = syscall(SYS_openat, AT_FDCWD, "/dev/null", O_RDONLY | O_CLOEXEC);
  if (fd >= 0) syscall(SYS_close, fd);
}

uint64_t NowNs(clockid_t clock) {
  timespec ts{};
  clock_gettime(clock, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ULL + static_cast<uint64_t>(ts.tv_nsec);
}

// A measurement is cut into chunks and reports the median chunk: the chunks
// right after another tenant ran on our CPU (cold caches and TLB) then move
// it far less than they would move a mean.
constexpr uint64_t kChunks = 100;

// Untimed iterations ahead of a toggled chunk, as a fraction of it.
constexpr uint64_t kWarmupDivisor = 8;

// Checking the stop flag on every iteration would add its own cost.
constexpr uint64_t kIterationsPerStopCheck = 64;

// CPU time of the calling thread per iteration over `n` iterations.
double ChunkNs(Workload w, uint64_t n) {
  const uint64_t start = NowNs(CLOCK_THREAD_CPUTIME_ID);
  for (uint64_t i = 0; i < n; ++i) Iterate(w);
  const uint64_t end = NowNs(CLOCK_THREAD_CPUTIME_ID);
  return static_cast<double>(end - start) / static_cast<double>(n);
}

}  // namespace

std::string WorkloadName(Workload w) {
  return w == Workload::kGetppid ? "getppid" : "openat+close";
}

uint32_t SyscallsPerIteration(Workload w) { return w == Workload::kGetppid ? 1 : 2; }

double ThreadCpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

absl::Status PinThisThread(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  if (const int err = pthread_setaffinity_np(pthread_self(), sizeof(set), &set); err != 0) {
    return absl::ErrnoToStatus(err, "pinning a bench thread");
  }
  return absl::OkStatus();
}

absl::Status UnpinThisThread() {
  cpu_set_t set;
  CPU_ZERO(&set);
  for (int cpu = 0; cpu < OnlineCpus(); ++cpu) CPU_SET(cpu, &set);
  if (const int err = pthread_setaffinity_np(pthread_self(), sizeof(set), &set); err != 0) {
    return absl::ErrnoToStatus(err, "unpinning a bench thread");
  }
  return absl::OkStatus();
}

int OnlineCpus() {
  const long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? static_cast<int>(n) : 1;
}

double MeasureNsPerIteration(Workload w, uint64_t iterations) {
  const uint64_t chunk = std::max<uint64_t>(1, iterations / kChunks);
  std::vector<double> per_chunk;
  per_chunk.reserve(kChunks);
  for (uint64_t done = 0; done < iterations; done += chunk) per_chunk.push_back(ChunkNs(w, chunk));
  return Median(std::move(per_chunk));
}

absl::StatusOr<ChunkPair> MeasurePair(Workload w, uint64_t chunk, bool state_first,
                                      const std::function<absl::Status()>& enter,
                                      const std::function<void()>& leave) {
  const uint64_t warmup = std::max<uint64_t>(1, chunk / kWarmupDivisor);
  ChunkPair pair;
  for (int half = 0; half < 2; ++half) {
    if ((half == 0) == state_first) {
      if (absl::Status s = enter(); !s.ok()) {
        leave();
        return s;
      }
      for (uint64_t i = 0; i < warmup; ++i) Iterate(w);
      pair.with_ns = ChunkNs(w, chunk);
      leave();
    } else {
      for (uint64_t i = 0; i < warmup; ++i) Iterate(w);
      pair.without_ns = ChunkNs(w, chunk);
    }
  }
  return pair;
}

uint64_t RunUntilStopped(Workload w, const std::atomic<bool>& stop) {
  uint64_t n = 0;
  while (!stop.load(std::memory_order_relaxed)) {
    for (uint64_t i = 0; i < kIterationsPerStopCheck; ++i) Iterate(w);
    n += kIterationsPerStopCheck;
  }
  return n;
}

uint64_t RunPacedUntilStopped(Workload w, double per_second, const std::atomic<bool>& stop) {
  const uint64_t start = NowNs(CLOCK_MONOTONIC);
  uint64_t n = 0;
  while (!stop.load(std::memory_order_relaxed)) {
    const double allowed = static_cast<double>(NowNs(CLOCK_MONOTONIC) - start) * per_second / 1e9;
    if (static_cast<double>(n) >= allowed) continue;
    for (uint64_t i = 0; i < kIterationsPerStopCheck; ++i) Iterate(w);
    n += kIterationsPerStopCheck;
  }
  return n;
}

}  // namespace kestrel::bench
