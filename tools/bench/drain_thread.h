// A consumer thread for the bench: calls a drain step until stopped, placed
// on a chosen CPU and nice level, and reports the CPU time it used.
#ifndef KESTREL_TOOLS_BENCH_DRAIN_THREAD_H_
#define KESTREL_TOOLS_BENCH_DRAIN_THREAD_H_

#include <pthread.h>

#include <atomic>
#include <functional>
#include <thread>

namespace kestrel::bench {

// How long an idle drain step sleeps before it looks again.
inline constexpr int kIdleWaitMs = 5;

struct DrainPlacement {
  int cpu = -1;  // -1 = any CPU
  int nice = 0;
};

class DrainThread {
 public:
  // `step` drains what is ready and, when nothing is, sleeps a few ms: it
  // must never spin.
  DrainThread(std::function<void()> step, DrainPlacement placement);
  ~DrainThread();

  DrainThread(const DrainThread&) = delete;
  DrainThread& operator=(const DrainThread&) = delete;

  // CPU time the thread has used so far (user + system).
  double CpuSeconds() const;

 private:
  void Run(DrainPlacement placement);

  std::function<void()> step_;
  std::atomic<bool> stop_{false};
  std::atomic<bool> started_{false};
  pthread_t handle_{};
  std::thread thread_;
};

}  // namespace kestrel::bench

#endif  // KESTREL_TOOLS_BENCH_DRAIN_THREAD_H_
