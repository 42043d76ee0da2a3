// Command-line options of `kestrel capture`, and the probe options that
// `kestrel stats` shares with it.
#ifndef KESTREL_CLI_CAPTURE_OPTIONS_H_
#define KESTREL_CLI_CAPTURE_OPTIONS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "agent/probe/probe_loader.h"
#include "kestrel/common/setting_flags.h"
#include "libpman.h"

namespace kestrel::cli {

// The probe's part (syscalls, pid, settings, rings, pin, lock) is what the
// agent loads (agent/probe/probe_loader.h); the rest is the verb's own.
struct CaptureOptions : agent::ProbeStart {
  std::optional<uint64_t> count;
  std::optional<double> duration_s;
  bool json = false;
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
