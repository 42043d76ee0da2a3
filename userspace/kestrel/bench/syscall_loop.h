// The loads the bench measures: tight loops of real syscalls on a pinned CPU.
#ifndef KESTREL_CLI_BENCH_SYSCALL_LOOP_H_
#define KESTREL_CLI_BENCH_SYSCALL_LOOP_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace kestrel::cli::bench {

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

struct PairedCost {
  double base_ns = 0;   // median chunk without the state, ns/iteration
  double added_ns = 0;  // median of (with - without) over adjacent chunk pairs
};

// For states that are cheap to enter and leave (attaching a BPF program
// takes microseconds): alternates chunks of `chunk` iterations without and
// with the state, `pairs` times, swapping which comes first on every pair.
// The machine's drift cancels within each pair, milliseconds apart.
absl::StatusOr<PairedCost> MeasureTogglingPairs(Workload w, uint64_t chunk, int pairs,
                                                const std::function<absl::Status()>& enter,
                                                const std::function<void()>& leave);

// Iterates as fast as it can until `stop` is set; returns the iterations run.
uint64_t RunUntilStopped(Workload w, const std::atomic<bool>& stop);

// Iterates at most `per_second` iterations per second until `stop` is set.
uint64_t RunPacedUntilStopped(Workload w, double per_second, const std::atomic<bool>& stop);

}  // namespace kestrel::cli::bench

#endif  // KESTREL_CLI_BENCH_SYSCALL_LOOP_H_
