// The open descriptors of one process (or of the processes sharing one fd
// table through CLONE_FILES). Kept by the fd state from the kernel's
// records; the fields layer only reads it.
#ifndef KESTREL_ENGINE_STATE_FD_TABLE_H_
#define KESTREL_ENGINE_STATE_FD_TABLE_H_

#include <cstddef>
#include <cstdint>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "fd_info.h"

namespace kestrel::engine {

class FdTable {
 public:
  // The entry of `fd`, or nullptr when the descriptor is not known.
  const FdInfo* Find(int64_t fd) const {
    auto it = fds_.find(fd);
    return it == fds_.end() ? nullptr : &it->second;
  }
  FdInfo* Find(int64_t fd) {
    auto it = fds_.find(fd);
    return it == fds_.end() ? nullptr : &it->second;
  }
  // The entry of `fd` as a new descriptor's (a default FdInfo of that fd),
  // made in place for the caller to fill: what every open does, without
  // building an entry aside and moving it in. May move other entries.
  FdInfo& Reset(int64_t fd) {
    auto [it, added] = fds_.try_emplace(fd);
    if (!added) it->second = FdInfo{};
    it->second.fd = fd;
    return it->second;
  }
  // Makes the entry of `to` a copy of the entry of `from`, which must
  // exist and differ from `to` (dup): copied where it lives.
  FdInfo& Copy(int64_t from, int64_t to) {
    FdInfo& copy = fds_[to];
    // Looked up after adding `to`: adding may move the entries.
    copy = fds_.find(from)->second;
    copy.fd = to;
    return copy;
  }
  // Adds or replaces the entry of info.fd.
  FdInfo& Set(FdInfo info) {
    const int64_t fd = info.fd;
    return fds_.insert_or_assign(fd, std::move(info)).first->second;
  }
  void Erase(int64_t fd) { fds_.erase(fd); }
  // Closes every descriptor in [first, last] (close_range).
  void EraseRange(int64_t first, int64_t last) {
    absl::erase_if(fds_, [&](const auto& kv) { return kv.first >= first && kv.first <= last; });
  }
  // Drops every entry `pred` holds for (exec closing O_CLOEXEC descriptors).
  template <typename Pred>
  void EraseIf(Pred pred) {
    absl::erase_if(fds_, [&](const auto& kv) { return pred(kv.second); });
  }
  // Calls `visit` on every entry in [first, last] (close_range's cloexec).
  template <typename Visit>
  void ForEachInRange(int64_t first, int64_t last, Visit visit) {
    for (auto& [fd, info] : fds_) {
      if (fd >= first && fd <= last) visit(info);
    }
  }
  size_t size() const { return fds_.size(); }
  const absl::flat_hash_map<int64_t, FdInfo>& entries() const { return fds_; }

 private:
  absl::flat_hash_map<int64_t, FdInfo> fds_;
};

}  // namespace kestrel::engine

#endif  // KESTREL_ENGINE_STATE_FD_TABLE_H_
