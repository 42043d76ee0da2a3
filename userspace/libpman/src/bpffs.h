// Where pins live: bpffs, mounted at /sys/fs/bpf by systemd. Machines
// without systemd may not mount it; like bpftool, libpman mounts it there
// rather than fail, and says plainly when a directory is elsewhere.
#ifndef KESTREL_LIBPMAN_BPFFS_H_
#define KESTREL_LIBPMAN_BPFFS_H_

#include <string>

#include "absl/status/status.h"

namespace kestrel::pman {

inline constexpr char kBpffsMount[] = "/sys/fs/bpf";

// Whether `path` is on a bpffs.
bool OnBpffs(const std::string& path);

// For /sys/fs/bpf or a `path` under it, mounts bpffs there (mode 0700) if
// nothing is mounted yet; other paths are left alone.
absl::Status EnsureBpffsFor(const std::string& path);

}  // namespace kestrel::pman

#endif  // KESTREL_LIBPMAN_BPFFS_H_
