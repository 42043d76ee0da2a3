#include "capture_options.h"

#include <algorithm>
#include <iterator>
#include <string_view>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"
#include "engine/decode/syscall_names.h"
#include "libpman.h"
#include "ring_options.h"

namespace kestrel::cli {

const char kCaptureUsage[] =
    "usage: kestrel capture [--syscalls NAME,... | --all] [--pid PID] [--count N]\n"
    "                       [--duration SECONDS] [--json]\n"
    "                       [--buffer-bytes small|default|large|N[K|M|G]]\n"
    "                       [--cpus-per-buffer auto|N] [--online-cpus-only]\n"
    "                       [--pin | --pin-dir DIR] [--lock-settings] [--io-data]\n"
    "                       [--settings-storage bss|array]\n"
    "       kestrel capture --list-events\n"
    "Prints one line per syscall event until Ctrl-C, --count or --duration,\n"
    "then the probe's counters on stderr. --pin exposes the capture to\n"
    "`kestrel settings` and `kestrel syscalls`; --lock-settings freezes the\n"
    "settings and syscall set once they are in place. --list-events prints every\n"
    "specific event with its syscall and typed parameters, and exits.\n"
    "--settings-storage picks where the probe keeps settings and syscall tables:\n"
    "a .bss global (the default) or a BPF_F_MMAPABLE array; both are mmapped.\n";

namespace {

constexpr std::string_view kValuedFlags[] = {
    "--syscalls",        "--pid",     "--count",           "--duration", "--buffer-bytes",
    "--cpus-per-buffer", "--pin-dir", "--settings-storage"};

absl::Status FlagError(const std::string& flag, const std::string& why) {
  return absl::InvalidArgumentError(absl::StrFormat("%s: %s", flag, why));
}

template <typename T>
absl::Status ParseNumber(const std::string& flag, const std::string& text, T* out) {
  if (!absl::SimpleAtoi(text, out)) {
    return FlagError(flag, absl::StrFormat("\"%s\" is not a whole number", text));
  }
  return absl::OkStatus();
}

// Applies one flag that takes `value`.
absl::Status ApplyValuedFlag(const std::string& flag, const std::string& value,
                             CaptureOptions& options) {
  if (flag == "--syscalls") {
    absl::StatusOr<std::vector<uint32_t>> ids = engine::ParseSyscallList(value);
    if (!ids.ok()) return FlagError(flag, std::string(ids.status().message()));
    options.all_syscalls = false;
    options.syscalls = *std::move(ids);
    return absl::OkStatus();
  }
  if (flag == "--pid") {
    absl::Status s = ParseNumber(flag, value, &options.pid);
    if (s.ok() && options.pid == 0) return FlagError(flag, "must be a process id above 0");
    return s;
  }
  if (flag == "--count") {
    uint64_t n = 0;
    absl::Status s = ParseNumber(flag, value, &n);
    if (s.ok() && n == 0) return FlagError(flag, "must be at least 1");
    options.count = n;
    return s;
  }
  if (flag == "--duration") {
    double seconds = 0;
    if (!absl::SimpleAtod(value, &seconds) || !(seconds > 0)) {
      return FlagError(flag, absl::StrFormat("\"%s\" is not a positive number of seconds", value));
    }
    options.duration_s = seconds;
    return absl::OkStatus();
  }
  if (flag == "--buffer-bytes") {
    absl::StatusOr<uint64_t> bytes = ParseBufferBytes(value);
    if (!bytes.ok()) return FlagError(flag, std::string(bytes.status().message()));
    options.buffer_bytes = *bytes;
    return absl::OkStatus();
  }
  if (flag == "--cpus-per-buffer") {
    absl::StatusOr<uint32_t> n = ParseCpusPerBuffer(value);
    if (!n.ok()) return FlagError(flag, std::string(n.status().message()));
    options.cpus_per_buffer = *n;
    return absl::OkStatus();
  }
  if (flag == "--pin-dir") {
    if (value.empty()) return FlagError(flag, "needs a directory");
    options.pin_dir = value;
    return absl::OkStatus();
  }
  if (flag == "--settings-storage") {
    if (value == "bss") {
      options.settings_storage = PMAN_SETTINGS_STORAGE_BSS;
    } else if (value == "array") {
      options.settings_storage = PMAN_SETTINGS_STORAGE_ARRAY;
    } else {
      return FlagError(flag, absl::StrFormat("\"%s\" is neither bss nor array", value));
    }
    return absl::OkStatus();
  }
  return absl::InvalidArgumentError(absl::StrFormat("unknown option \"%s\"", flag));
}

}  // namespace

absl::StatusOr<CaptureOptions> ParseCaptureOptions(const std::vector<std::string>& args) {
  CaptureOptions options;
  bool saw_syscalls = false;
  bool saw_all = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& flag = args[i];
    if (flag == "--all") {
      saw_all = true;
      continue;
    }
    if (flag == "--json") {
      options.json = true;
      continue;
    }
    if (flag == "--online-cpus-only") {
      options.online_cpus_only = true;
      continue;
    }
    if (flag == "--pin") {
      if (!options.pin_dir) options.pin_dir = "";
      continue;
    }
    if (flag == "--lock-settings") {
      options.lock_settings = true;
      continue;
    }
    if (flag == "--io-data") {
      options.io_data = true;
      continue;
    }
    if (flag == "--list-events") {
      options.list_events = true;
      continue;
    }
    if (std::find(std::begin(kValuedFlags), std::end(kValuedFlags), flag) ==
        std::end(kValuedFlags)) {
      return absl::InvalidArgumentError(absl::StrFormat("unknown option \"%s\"", flag));
    }
    if (i + 1 >= args.size()) return FlagError(flag, "needs a value");
    if (absl::Status s = ApplyValuedFlag(flag, args[++i], options); !s.ok()) return s;
    saw_syscalls = saw_syscalls || flag == "--syscalls";
  }
  if (saw_all && saw_syscalls) {
    return absl::InvalidArgumentError("--all and --syscalls cannot be used together");
  }
  return options;
}

}  // namespace kestrel::cli
