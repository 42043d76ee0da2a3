// The memory the kernel charges for a BPF map, as it reports it in the
// map's fdinfo: the figure `kestrel stats` calls locked memory.
#ifndef KESTREL_LIBPMAN_MAP_MEMLOCK_H_
#define KESTREL_LIBPMAN_MAP_MEMLOCK_H_

#include <cstdint>

#include "absl/status/statusor.h"

namespace kestrel::pman {

absl::StatusOr<uint64_t> MapMemlockBytes(int map_fd);

}  // namespace kestrel::pman

#endif  // KESTREL_LIBPMAN_MAP_MEMLOCK_H_
