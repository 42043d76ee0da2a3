// Cgroups for the engine bench's load: named as Docker's systemd driver
// names a container's (`docker-<64 hex>.scope`), so the processes moved
// into them count as in that many containers, or named as no runtime names
// one (the same load on the host). In the v1 cpu controller where there is
// one (hybrid hosts), else in the unified hierarchy; under a folder of this
// process's own, removed when done.
#ifndef KESTREL_TOOLS_BENCH_CONTAINER_CGROUPS_H_
#define KESTREL_TOOLS_BENCH_CONTAINER_CGROUPS_H_

#include <sys/types.h>

#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace kestrel::bench {

class ContainerCgroups {
 public:
  static absl::StatusOr<ContainerCgroups> Make(int count, bool as_containers);
  ContainerCgroups(ContainerCgroups&& other) noexcept;
  ContainerCgroups& operator=(ContainerCgroups&&) = delete;
  // Every process in them must have ended.
  ~ContainerCgroups();

  int count() const { return static_cast<int>(dirs_.size()); }
  // Moves the calling process into cgroup `i`; false when it could not.
  bool Join(int i) const;
  // Whether no process is left in any of them (a killed process leaves
  // once reaped).
  bool Empty() const;

 private:
  ContainerCgroups() = default;
  std::string parent_;
  std::vector<std::string> dirs_;
};

}  // namespace kestrel::bench

#endif  // KESTREL_TOOLS_BENCH_CONTAINER_CGROUPS_H_
