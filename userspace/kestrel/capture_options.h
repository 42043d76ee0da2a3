// Command-line options of `kestrel capture`.
#ifndef KESTREL_CLI_CAPTURE_OPTIONS_H_
#define KESTREL_CLI_CAPTURE_OPTIONS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "libpman.h"

namespace kestrel::cli {

struct CaptureOptions {
  bool all_syscalls = true;
  std::vector<uint32_t> syscalls;  // when !all_syscalls
  uint32_t pid = 0;                // 0 = every process
  std::optional<uint64_t> count;
  std::optional<double> duration_s;
  bool json = false;
  bool io_data = false;  // copy read/write data (up to the snaplen)
  uint64_t buffer_bytes = PMAN_DEFAULT_BUFFER_BYTES;
  uint32_t cpus_per_buffer = PMAN_CPUS_PER_BUFFER_AUTO;
  bool online_cpus_only = false;
  // Pin the capture for `kestrel settings` / `kestrel syscalls` (empty
  // string = libpman's default directory).
  std::optional<std::string> pin_dir;
  bool lock_settings = false;  // freeze the settings once set up
  // PMAN_SETTINGS_STORAGE_*: where the probe keeps its settings.
  uint32_t settings_storage = PMAN_SETTINGS_STORAGE_DEFAULT;
  bool list_events = false;  // print the event schema instead of capturing
};

// Parses the arguments that follow `kestrel capture`. Errors name the flag.
absl::StatusOr<CaptureOptions> ParseCaptureOptions(const std::vector<std::string>& args);

extern const char kCaptureUsage[];

}  // namespace kestrel::cli

#endif  // KESTREL_CLI_CAPTURE_OPTIONS_H_
