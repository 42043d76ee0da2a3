// Command names of threads, read from /proc on first sight and cached, so a
// record need not carry its comm.
#ifndef KESTREL_ENGINE_PROCESS_NAMES_H_
#define KESTREL_ENGINE_PROCESS_NAMES_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include "absl/container/flat_hash_map.h"

namespace kestrel::engine {

class ProcessNames {
 public:
  // The comm of thread `tid` of process `tgid`; "?" once the thread is gone.
  std::string_view Comm(uint32_t tgid, uint32_t tid);

  // Drops what is cached for `tid`, e.g. after it called execve.
  void Forget(uint32_t tid) { comms_.erase(tid); }

  // Records what an event says `tid` is called now (an execve's comm), so
  // threads that are gone before /proc is read still have a name.
  void Remember(uint32_t tid, std::string comm) {
    if (comms_.size() >= kMaxEntries) comms_.clear();
    comms_.insert_or_assign(tid, std::move(comm));
  }

 private:
  // Bounds the cache on hosts with heavy thread churn.
  static constexpr size_t kMaxEntries = 65536;

  absl::flat_hash_map<uint32_t, std::string> comms_;
};

}  // namespace kestrel::engine

#endif  // KESTREL_ENGINE_PROCESS_NAMES_H_
