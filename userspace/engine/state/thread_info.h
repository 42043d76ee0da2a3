// What the engine knows about one thread.
#ifndef KESTREL_ENGINE_STATE_THREAD_INFO_H_
#define KESTREL_ENGINE_STATE_THREAD_INFO_H_

#include <cstdint>
#include <string>

namespace kestrel::engine {

struct ThreadInfo {
  uint32_t tid = 0;
  uint32_t tgid = 0;  // the process id
  uint32_t ppid = 0;  // the parent's process id; 0 when not known
  std::string comm;   // the kernel's task name, at most 15 bytes
  std::string exe;    // the executable's path; empty when not known
  // Set by PROCESS_EXIT: the thread is gone, and its entry is kept only for
  // the grace period so records still in flight resolve.
  bool exited = false;
  uint64_t exit_ts_ns = 0;
};

}  // namespace kestrel::engine

#endif  // KESTREL_ENGINE_STATE_THREAD_INFO_H_
