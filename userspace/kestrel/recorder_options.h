// Command-line options of `kestrel recorder start|stop` and `kestrel dump`.
#ifndef KESTREL_CLI_RECORDER_OPTIONS_H_
#define KESTREL_CLI_RECORDER_OPTIONS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

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
};

absl::StatusOr<RecorderStartOptions> ParseRecorderStartOptions(
    const std::vector<std::string>& args);
absl::StatusOr<RecorderTarget> ParseRecorderStopOptions(const std::vector<std::string>& args);
absl::StatusOr<DumpOptions> ParseDumpOptions(const std::vector<std::string>& args);

// "64M", "512K", "1G", "65536" -> bytes (binary multiples).
absl::StatusOr<uint64_t> ParseByteSize(const std::string& text);
// "500ms", "10s", "5m", "2h" -> nanoseconds; a bare number is seconds.
absl::StatusOr<uint64_t> ParseDuration(const std::string& text);

extern const char kRecorderUsage[];
extern const char kDumpUsage[];

}  // namespace kestrel::cli

#endif  // KESTREL_CLI_RECORDER_OPTIONS_H_
