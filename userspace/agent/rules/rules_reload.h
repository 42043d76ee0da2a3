// Reloading `kestrel run`'s rules while it runs: noticing that a rules file
// changed (inotify) and applying a new ruleset's syscall set to the running
// probe as a difference, through the control block, with no detach.
#ifndef KESTREL_AGENT_RULES_RULES_RELOAD_H_
#define KESTREL_AGENT_RULES_RULES_RELOAD_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "agent/rules/syscall_set.h"
#include "libpman.h"

namespace kestrel::agent {

// Watches rules files and directories. A file is watched through its
// directory, so an editor's save by rename is seen as well as a write.
class RulesWatcher {
 public:
  static absl::StatusOr<std::unique_ptr<RulesWatcher>> Create(
      const std::vector<std::string>& paths);
  ~RulesWatcher();
  RulesWatcher(const RulesWatcher&) = delete;
  RulesWatcher& operator=(const RulesWatcher&) = delete;

  // Whether a watched file was written, created, renamed over or removed
  // since the last call. Never blocks.
  bool Changed();

 private:
  struct Watch {
    int wd;
    std::string name;  // the file watched in that directory; empty: any file
  };
  explicit RulesWatcher(int fd) : fd_(fd) {}
  int fd_;
  std::vector<Watch> watches_;
};

// What a live change did to the probe's table.
struct SyscallChange {
  std::vector<uint32_t> added;
  std::vector<uint32_t> removed;
};

// The ids in `after` and not `before` (added) and the reverse (removed).
SyscallChange DiffSyscallSets(const std::vector<ChosenSyscall>& before,
                              const std::vector<ChosenSyscall>& after);

// Marks `ids` interesting (or not) one by one in the running probe's table.
absl::Status MarkSyscalls(pman_handle* handle, const std::vector<uint32_t>& ids, bool interesting);

// "+connect -openat" for people ("no change" when empty).
std::string DescribeChange(const SyscallChange& change);

}  // namespace kestrel::agent

#endif  // KESTREL_AGENT_RULES_RULES_RELOAD_H_
