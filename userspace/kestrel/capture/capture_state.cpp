#include "kestrel/capture/capture_state.h"

#include <algorithm>
#include <cstddef>
#include <cstring>

#include "agent/probe/read_tally.h"
#include "engine/decode/event_schema.h"
#include "engine/decode/syscall_names.h"
#include "engine/state/state_syscalls.h"

namespace kestrel::cli {

const std::vector<uint32_t>& AddedStateSyscalls(const CaptureOptions& options) {
  return options.write_path ? engine::StateSyscalls() : engine::ProcessIdentitySyscalls();
}

std::vector<uint32_t> ShownAndStateSyscalls(const CaptureOptions& options) {
  std::vector<uint32_t> ids = options.syscalls;
  const std::vector<uint32_t>& state = AddedStateSyscalls(options);
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
  for (uint32_t id : AddedStateSyscalls(options)) {
    if (std::find(options.syscalls.begin(), options.syscalls.end(), id) == options.syscalls.end()) {
      hidden.push_back(id);
    }
  }
  return engine::ShownSyscalls::AllExcept(hidden);
}

bool ShownEventCounter::Counts(const kestrel_record_header& record) {
  if (!agent::IsSyscallEvent(record)) return false;
  if (record.type == KESTREL_EVT_GENERIC_SYSCALL) {
    uint64_t id = 0;
    if (record.len < sizeof(kestrel_generic_record)) return false;
    std::memcpy(
        &id,
        reinterpret_cast<const uint8_t*>(&record) + offsetof(kestrel_generic_record, syscall_id),
        sizeof(id));
    return id <= UINT32_MAX && shown_.Shows(static_cast<uint32_t>(id));
  }
  int8_t& known = by_type_[record.type];
  if (known < 0) {
    const engine::EventInfo* info = engine::FindEvent(record.type);
    known = info != nullptr && shown_.Shows(engine::SyscallId(info->syscall).value_or(UINT32_MAX));
  }
  return known == 1;
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
