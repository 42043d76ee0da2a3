// Turns a writable mmap of a BPF map into a read-only one and freezes the
// map, so neither this process nor anyone holding an fd can change it from
// user space again (the probe still can).
#ifndef KESTREL_LIBPMAN_MAP_FREEZE_H_
#define KESTREL_LIBPMAN_MAP_FREEZE_H_

#include <cstddef>

#include "absl/status/status.h"

namespace kestrel::pman {

// `addr`/`len` is this process's writable mapping of `map_fd`; on success
// the same range maps the frozen map read-only. On failure the writable
// mapping is restored. Fails with EBUSY while another writable mapping of
// the map exists anywhere (e.g. a controller process).
absl::Status FreezeMappedMap(int map_fd, void* addr, size_t len);

}  // namespace kestrel::pman

#endif  // KESTREL_LIBPMAN_MAP_FREEZE_H_
