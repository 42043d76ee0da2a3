#include "table_snapshot.h"

#include <algorithm>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "fd_table.h"

namespace kestrel::engine {

SnapshotRecords MakeTableSnapshot(const ThreadTable& table, uint64_t ts_ns) {
  std::vector<const ThreadInfo*> threads;
  threads.reserve(table.size());
  table.ForEach([&](const ThreadInfo& t) { threads.push_back(&t); });
  std::sort(threads.begin(), threads.end(),
            [](const ThreadInfo* a, const ThreadInfo* b) { return a->tid < b->tid; });
  SnapshotRecords out;
  // Threads first: a reader gives a descriptor to a thread it already has.
  for (const ThreadInfo* t : threads) out.AddThread(*t, ts_ns);
  absl::flat_hash_set<const FdTable*> listed;
  for (const ThreadInfo* t : threads) {
    if (!t->fds || !listed.insert(t->fds.get()).second) continue;
    std::vector<const FdInfo*> fds;
    for (const auto& [fd, info] : t->fds->entries()) fds.push_back(&info);
    std::sort(fds.begin(), fds.end(),
              [](const FdInfo* a, const FdInfo* b) { return a->fd < b->fd; });
    for (const FdInfo* fd : fds) out.AddFd(t->tid, t->tgid, *fd, ts_ns);
  }
  return out;
}

}  // namespace kestrel::engine
