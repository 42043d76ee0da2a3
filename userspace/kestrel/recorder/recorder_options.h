// Command-line options of `kestrel recorder start|stop` and `kestrel dump`,
// each defined once on a CLI::App (see cli_app.h) for parsing, --help and
// completion.
#ifndef KESTREL_CLI_RECORDER_OPTIONS_H_
#define KESTREL_CLI_RECORDER_OPTIONS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "absl/status/statusor.h"

namespace kestrel::cli {

// Which recorder: every recorder command takes these.
struct RecorderTarget {
  std::string name = "default";
  std::string pin_root = "/sys/fs/bpf/kestrel";
};

struct RecorderStartOptions {
  RecorderTarget target;
  uint64_t size_bytes = 64ULL << 20;
  bool per_cpu = false;
  std::optional<std::vector<uint32_t>> syscalls;  // unset = every syscall
  std::string cgroup_path;                        // empty = every cgroup
};

struct DumpOptions {
  RecorderTarget target;
  uint64_t last = 0;      // 0 = every record still in the ring
  uint64_t since_ns = 0;  // 0 = no age limit
  bool json = false;
  // -w: the window goes to this capture file instead of stdout.
  std::optional<std::string> write_path;
};

// What `kestrel recorder` parses: one of its two subcommands.
struct RecorderOptions {
  RecorderStartOptions start;
  RecorderTarget stop;
};

inline constexpr char kRecorderDescription[] =
    "Start or stop a flight recorder: a probe that keeps the newest records in an overwrite "
    "ring with no process attached, read with `kestrel dump`.";
inline constexpr char kRecorderExample[] =
    "kestrel recorder start --size 16M --syscalls openat,execve";
inline constexpr char kRecorderStartDescription[] =
    "Load a flight recorder that keeps the newest records in an overwrite ring (one ring "
    "shared by all CPUs, or one per CPU with --per-cpu), pin it under PIN_ROOT/NAME and exit; "
    "it records until `kestrel recorder stop`. The remains of a start that was killed halfway "
    "are removed first.";
inline constexpr char kRecorderStartExample[] =
    "kestrel recorder start --name web --size 16M --cgroup system.slice/nginx.service";
inline constexpr char kRecorderStopDescription[] =
    "Stop a flight recorder: unpin it (the probe detaches) and remove its folder, or the "
    "remains of a start that was killed halfway. Removes nothing unless every pin in the "
    "folder is proven to be a Kestrel recorder's; exits 1 naming what is not.";
inline constexpr char kRecorderStopExample[] = "kestrel recorder stop --name web";
inline constexpr char kDumpDescription[] =
    "Print the newest records of a running flight recorder, oldest first. Counts of skipped "
    "records go to stderr. dump's own syscalls are left out. With -w the records are saved as a "
    "capture file (read it with kestrel capture -r) instead.";
inline constexpr char kDumpExample[] = "kestrel dump --name web --since 10s";

void DefineRecorderStartOptions(CLI::App& app, RecorderStartOptions& options);
void DefineRecorderStopOptions(CLI::App& app, RecorderTarget& target);
// `kestrel recorder`: the start and stop subcommands, for help and
// completion of the whole verb.
void DefineRecorderOptions(CLI::App& app, RecorderOptions& options);
void DefineDumpOptions(CLI::App& app, DumpOptions& options);

// The same definitions, parsed from `args` without printing: a usage error
// is InvalidArgument with the one-line message the command prints.
absl::StatusOr<RecorderStartOptions> ParseRecorderStartOptions(
    const std::vector<std::string>& args);
absl::StatusOr<RecorderTarget> ParseRecorderStopOptions(const std::vector<std::string>& args);
absl::StatusOr<DumpOptions> ParseDumpOptions(const std::vector<std::string>& args);

// --size: bytes, or a count with K/M/G (powers of 1024), e.g. "64M".
absl::StatusOr<uint64_t> ParseRecorderSize(const std::string& text);
// "500ms", "10s", "5m", "2h" -> nanoseconds; a bare number is seconds.
absl::StatusOr<uint64_t> ParseDuration(const std::string& text);

}  // namespace kestrel::cli

#endif  // KESTREL_CLI_RECORDER_OPTIONS_H_
