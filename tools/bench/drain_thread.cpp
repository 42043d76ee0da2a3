#include "bench/drain_thread.h"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <utility>

#include "bench/syscall_loop.h"

namespace kestrel::bench {

DrainThread::DrainThread(std::function<void()> step, DrainPlacement placement)
    : step_(std::move(step)) {
  thread_ = std::thread([this, placement] { Run(placement); });
  while (!started_.load(std::memory_order_acquire)) std::this_thread::yield();
}

DrainThread::~DrainThread() {
  stop_.store(true, std::memory_order_relaxed);
  thread_.join();
}

void DrainThread::Run(DrainPlacement placement) {
  // Placement is best effort: a failure shows up in the figures, not as a
  // reason to abort a whole bench run.
  if (placement.cpu >= 0) (void)PinThisThread(placement.cpu);
  if (placement.nice != 0) {
    setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), placement.nice);
  }
  handle_ = pthread_self();
  started_.store(true, std::memory_order_release);
  while (!stop_.load(std::memory_order_relaxed)) step_();
  step_();  // what arrived while stopping
}

double DrainThread::CpuSeconds() const {
  clockid_t clock;
  if (pthread_getcpuclockid(handle_, &clock) != 0) return 0;
  timespec ts{};
  clock_gettime(clock, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

}  // namespace kestrel::bench
