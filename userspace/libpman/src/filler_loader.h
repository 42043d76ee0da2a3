// Loads custom fillers into a probe that is already loaded, when a syscall
// that needs one is about to become interesting.
//
// libbpf cannot add a program to a loaded bpf_object, so each growth opens
// the embedded object once more, points every one of its maps at the
// loaded probe's (bpf_map__reuse_fd: .rodata too, frozen, so the verifier
// still sees the load-time constants), loads only the missing fillers and
// puts them in custom_fillers. The prog array keeps them loaded; the extra
// object is closed. The same path serves the loading process and a
// controller in another process, which reaches the maps through their pins.
#ifndef KESTREL_LIBPMAN_FILLER_LOADER_H_
#define KESTREL_LIBPMAN_FILLER_LOADER_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "program_stats.h"
#include "shared/control_block.h"

namespace kestrel::pman {

struct FillerLoadTarget {
  // The loaded probe's mode: which embedded object to open.
  kestrel_settings_storage storage = KESTREL_STORAGE_BSS;
  // The loaded probe's custom_fillers.
  int prog_array_fd = -1;
  // A new fd (the loader closes it) of the loaded probe's map named `name`
  // (bpf_map__name in the embedded object), or NotFound when the probe did
  // not create that map.
  std::function<absl::StatusOr<int>(const std::string& name)> map_fd;
  // Test only: make the kernel refuse the load (VerifierStatsLogs::Overflowing).
  bool fail_load = false;
};

// The syscall ids set in `interesting[0..n)`.
std::vector<uint32_t> SyscallIdsOf(const uint8_t* interesting, size_t n);

// Loads, in one extra object, every filler that the 64-bit syscalls `ids`
// need and whose slots are empty, then fills their slots. Returns the load
// statistics of the programs it loaded: none when nothing was missing.
// Callers flip the syscall table only after it succeeds; a failure may at
// most leave some of the new fillers in their slots, which no interesting
// syscall reaches yet.
absl::StatusOr<std::vector<ProgramLoadStats>> LoadMissingFillers(const FillerLoadTarget& target,
                                                                 const std::vector<uint32_t>& ids);

}  // namespace kestrel::pman

#endif  // KESTREL_LIBPMAN_FILLER_LOADER_H_
