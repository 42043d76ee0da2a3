// The loads the bench measures: tight loops of real syscalls on a pinned CPU.
#ifndef KESTREL_TOOLS_BENCH_SYSCALL_LOOP_H_
#define KESTREL_TOOLS_BENCH_SYSCALL_LOOP_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace kestrel::bench {

// x86_64 ids, the ones the loops issue.
inline constexpr uint32_t kGetppidId = 110;
inline constexpr uint32_t kOpenatId = 257;
inline constexpr uint32_t kCloseId = 3;

enum class Workload {
  kGetppid,    // one getppid per iteration
  kOpenClose,  // openat("/dev/null") + close per iteration
};

std::string WorkloadName(Workload w);
uint32_t SyscallsPerIteration(Workload w);

// CPU time the calling thread has used, in seconds.
double ThreadCpuSeconds();

// Pins the calling thread to `cpu`.
absl::Status PinThisThread(int cpu);
// Lets the calling thread run on every CPU again.
absl::Status UnpinThisThread();
int OnlineCpus();

// Runs `iterations` iterations and returns the calling thread's CPU time per
// iteration in ns (the median over chunks of the run). CPU time, not wall
// time: the other tenants of the machine preempting us must not count as
// syscall cost.
double MeasureNsPerIteration(Workload w, uint64_t iterations);

struct ChunkPair {
  double without_ns = 0;  // ns/iteration with the state not in force
  double with_ns = 0;     // ns/iteration with it in force
};

// For states that are cheap to enter and leave (attaching a BPF program
// takes microseconds): one chunk of `chunk` iterations without the state and
// one with it, back to back (`state_first` picks the order), so the
// machine's drift cancels within the pair. Each chunk is preceded by a few
// untimed iterations: the first syscalls after an attach or a detach run on
// cold caches, and after a settings change one of them writes its record.
absl::StatusOr<ChunkPair> MeasurePair(Workload w, uint64_t chunk, bool state_first,
                                      const std::function<absl::Status()>& enter,
                                      const std::function<void()>& leave);

// Iterates as fast as it can until `stop` is set; returns the iterations run.
uint64_t RunUntilStopped(Workload w, const std::atomic<bool>& stop);

// Iterates at most `per_second` iterations per second until `stop` is set.
uint64_t RunPacedUntilStopped(Workload w, double per_second, const std::atomic<bool>& stop);

}  // namespace kestrel::bench

#endif  // KESTREL_TOOLS_BENCH_SYSCALL_LOOP_H_
