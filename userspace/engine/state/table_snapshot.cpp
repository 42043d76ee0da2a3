#include <algorithm>
#include <tuple>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "fd_table.h"
#include "thread_table.h"

namespace kestrel::engine {

SnapshotRecords ThreadTable::Snapshot(uint64_t ts_ns) const {
  // Exited threads still in their grace period too: records a reader has
  // yet to read (a capture window's, a rotated file's) may name them.
  std::vector<const ThreadInfo*> threads;
  threads.reserve(threads_.size());
  for (const auto& [tid, t] : threads_) threads.push_back(&t);
  // A process's threads together, its leader first.
  std::sort(threads.begin(), threads.end(), [](const ThreadInfo* a, const ThreadInfo* b) {
    return std::make_tuple(a->tgid, a->tid != a->tgid, a->tid) <
           std::make_tuple(b->tgid, b->tid != b->tgid, b->tid);
  });
  SnapshotRecords out;
  // Threads first: a reader gives a descriptor to a thread it already has.
  for (const ThreadInfo* t : threads) out.AddThread(*t, ts_ns);
  absl::flat_hash_set<const FdTable*> listed;
  for (const ThreadInfo* t : threads) {
    if (!t->fds || !listed.insert(t->fds.get()).second) continue;
    std::vector<const FdInfo*> fds;
    fds.reserve(t->fds->size());
    for (const auto& [fd, info] : t->fds->entries()) fds.push_back(&info);
    std::sort(fds.begin(), fds.end(),
              [](const FdInfo* a, const FdInfo* b) { return a->fd < b->fd; });
    for (const FdInfo* fd : fds) out.AddFd(t->tid, t->tgid, *fd, ts_ns);
  }
  return out;
}

}  // namespace kestrel::engine
