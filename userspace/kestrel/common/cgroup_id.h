// The cgroup v2 id the probe sees (bpf_get_current_cgroup_id) for a path.
#ifndef KESTREL_CLI_CGROUP_ID_H_
#define KESTREL_CLI_CGROUP_ID_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"

namespace kestrel::cli {

// Where the cgroup v2 hierarchy is mounted (/sys/fs/cgroup, or
// /sys/fs/cgroup/unified on hybrid systems).
std::string Cgroup2Mount();

// `path` is absolute, or relative to the cgroup v2 mount.
absl::StatusOr<uint64_t> CgroupIdOf(const std::string& path);

}  // namespace kestrel::cli

#endif  // KESTREL_CLI_CGROUP_ID_H_
