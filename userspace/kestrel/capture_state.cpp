#include "capture_state.h"

#include <algorithm>

#include "engine/state/state_syscalls.h"

namespace kestrel::cli {

std::vector<uint32_t> ShownAndStateSyscalls(const CaptureOptions& options) {
  std::vector<uint32_t> ids = options.syscalls;
  const std::vector<uint32_t>& state = engine::StateSyscalls();
  ids.insert(ids.end(), state.begin(), state.end());
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  return ids;
}

CaptureOptions WithStateSyscalls(const CaptureOptions& options) {
  CaptureOptions probe_options = options;
  probe_options.syscalls = ShownAndStateSyscalls(options);
  return probe_options;
}

engine::ShownSyscalls ShownSyscallsOf(const CaptureOptions& options) {
  if (options.all_syscalls) return engine::ShownSyscalls::All();
  // Only the state syscalls the user did not ask for are hidden: a syscall
  // enabled later through `kestrel syscalls` on a pinned capture shows.
  std::vector<uint32_t> hidden;
  for (uint32_t id : engine::StateSyscalls()) {
    if (std::find(options.syscalls.begin(), options.syscalls.end(), id) == options.syscalls.end()) {
      hidden.push_back(id);
    }
  }
  return engine::ShownSyscalls::AllExcept(hidden);
}

void PrintThreadTableStats(const engine::ThreadTable& threads, uint64_t state_only_records,
                           std::FILE* out) {
  std::fprintf(out,
               "--- kestrel thread table: %llu records consumed for it and not shown; %zu "
               "threads, %llu evicted, %llu read from /proc after the seed\n",
               static_cast<unsigned long long>(state_only_records), threads.size(),
               static_cast<unsigned long long>(threads.evictions()),
               static_cast<unsigned long long>(threads.proc_fallbacks()));
}

}  // namespace kestrel::cli
