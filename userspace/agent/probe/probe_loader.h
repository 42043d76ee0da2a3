// Loads and attaches the probe: the syscall set, settings, pins and lock a
// run or a capture asks for, in the order that lets nothing be seen half
// set up.
#ifndef KESTREL_AGENT_PROBE_PROBE_LOADER_H_
#define KESTREL_AGENT_PROBE_PROBE_LOADER_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "agent/probe/settings_keys.h"
#include "libpman.h"

namespace kestrel::agent {

struct HandleCloser {
  void operator()(pman_handle* h) const { pman_close(h); }
};
using HandlePtr = std::unique_ptr<pman_handle, HandleCloser>;

struct ProbeStart {
  bool all_syscalls = true;
  std::vector<uint32_t> syscalls;  // when !all_syscalls
  uint32_t pid = 0;                // 0 = every process
  bool io_data = false;            // copy read/write data (up to the snaplen)
  uint32_t omitted_params = 0;     // KESTREL_OMIT_* bits: parameters left empty
  SettingOverrides settings;       // by settings-table key
  uint64_t buffer_bytes = PMAN_DEFAULT_BUFFER_BYTES;
  uint32_t cpus_per_buffer = PMAN_CPUS_PER_BUFFER_AUTO;
  bool online_cpus_only = false;
  // Pinned for other processes (`kestrel syscalls`, `kestrel settings`);
  // empty string = libpman's default directory.
  std::optional<std::string> pin_dir;
  bool lock_settings = false;  // freeze the settings once set up
  uint32_t settings_storage = PMAN_SETTINGS_STORAGE_DEFAULT;
  // libpman's log: warnings and errors, and why a step failed.
  pman_log_fn log_fn = nullptr;
  void* log_ctx = nullptr;
};

// Loads the probe configured by `start`, pins it and locks its settings
// when asked, then attaches it. On failure the log was told why and the
// result is null, with nothing left loaded or pinned. `attached`, when not
// null, receives "attached in S s (P programs, N instructions verified)".
//
// KESTREL_LOAD_ALL_FILLERS=1 (a debug switch, for the startup bench) loads
// every filler up front (PMAN_OPT_LOAD_ALL_FILLERS).
HandlePtr LoadProbe(const ProbeStart& start, std::string* attached);

}  // namespace kestrel::agent

#endif  // KESTREL_AGENT_PROBE_PROBE_LOADER_H_
