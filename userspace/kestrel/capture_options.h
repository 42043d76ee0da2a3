// Command-line options of `kestrel capture`, and the probe options that
// `kestrel stats` shares with it.
#ifndef KESTREL_CLI_CAPTURE_OPTIONS_H_
#define KESTREL_CLI_CAPTURE_OPTIONS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "libpman.h"
#include "setting_flags.h"

namespace kestrel::cli {

struct CaptureOptions {
  bool all_syscalls = true;
  std::vector<uint32_t> syscalls;  // when !all_syscalls
  uint32_t pid = 0;                // 0 = every process
  std::optional<uint64_t> count;
  std::optional<double> duration_s;
  bool json = false;
  bool io_data = false;         // copy read/write data (up to the snaplen)
  uint32_t omitted_params = 0;  // KESTREL_OMIT_* bits: parameters the probe leaves empty
  // --snaplen, --drop-failed ...: the settings table's flags.
  SettingOverrides settings;
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
  // -w: write records to this capture file instead of printing them.
  std::optional<std::string> write_path;
  uint64_t rotate_bytes = 0;  // --rotate-size: start a new file past this size (0 = never)
  uint32_t rotate_keep = 0;   // --rotate-keep: older files kept beside the current one
  // -r: print this capture file instead of capturing live.
  std::optional<std::string> read_path;
};

inline constexpr char kCaptureDescription[] = "print live syscall events";

// The longest --duration accepted: longer is more likely a typo (1e10) than
// a plan, and a capture meant to run for ever needs no --duration.
inline constexpr double kMaxDurationSeconds = 30.0 * 24 * 3600;

// Every flag of `kestrel capture`, bound to `options`.
void DefineCaptureOptions(CLI::App& app, CaptureOptions& options);

// The flags that shape what a loaded probe captures, shared by capture and
// stats: --syscalls | --all, --pid, --duration, --io-data, the ring flags
// and --settings-storage.
void DefineProbeOptions(CLI::App& app, CaptureOptions& options);

}  // namespace kestrel::cli

#endif  // KESTREL_CLI_CAPTURE_OPTIONS_H_
