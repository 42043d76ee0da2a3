#include <algorithm>
#include <tuple>
#include <vector>

#include "fd_table.h"
#include "thread_table.h"

namespace kestrel::engine {

SnapshotRecords ThreadTable::Snapshot(uint64_t ts_ns) const {
  std::vector<const ThreadInfo*> live;
  live.reserve(threads_.size());
  for (const auto& [tid, t] : threads_) {
    if (!t.exited) live.push_back(&t);
  }
  // A reader seeds descriptors into the process of a thread it already
  // has, so a process's threads come together, its leader first.
  std::sort(live.begin(), live.end(), [](const ThreadInfo* a, const ThreadInfo* b) {
    return std::make_tuple(a->tgid, a->tid != a->tgid, a->tid) <
           std::make_tuple(b->tgid, b->tid != b->tgid, b->tid);
  });
  SnapshotRecords out;
  const FdTable* listed = nullptr;
  for (const ThreadInfo* t : live) {
    out.AddThread(*t, ts_ns);
    if (!t->fds || t->fds.get() == listed) continue;
    listed = t->fds.get();
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
