#include "recorder_options.h"

#include "absl/strings/string_view.h"

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"
#include "engine/decode/syscall_names.h"

namespace kestrel::cli {

const char kRecorderUsage[] =
    "usage: kestrel recorder start [--name NAME] [--size BYTES] [--per-cpu]\n"
    "                              [--syscalls NAME,...] [--cgroup PATH] [--pin-root DIR]\n"
    "       kestrel recorder stop  [--name NAME] [--pin-root DIR]\n"
    "start loads a flight recorder that keeps the newest records in an overwrite\n"
    "ring (default 64M, one ring shared by all CPUs), pins it under\n"
    "DIR/NAME (default /sys/fs/bpf/kestrel/default) and exits; it records until\n"
    "stop. --cgroup records only tasks of that cgroup (v2 path, absolute or\n"
    "relative to the cgroup v2 mount).\n";

const char kDumpUsage[] =
    "usage: kestrel dump [--name NAME] [--pin-root DIR] [--last N | --since DURATION]\n"
    "                    [--json]\n"
    "Prints the newest records of a running flight recorder, oldest first.\n"
    "DURATION: 500ms, 10s, 5m, 2h. Counts of skipped records go to stderr.\n";

namespace {

absl::Status FlagError(const std::string& flag, const std::string& why) {
  return absl::InvalidArgumentError(absl::StrFormat("%s: %s", flag, why));
}

// Walks `args`, handing each flag (and its value, when it takes one) to
// `apply`; `takes_value(flag)` says which do.
template <typename TakesValue, typename Apply>
absl::Status ForEachFlag(const std::vector<std::string>& args, TakesValue takes_value,
                         Apply apply) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& flag = args[i];
    if (!takes_value(flag)) {
      if (absl::Status s = apply(flag, std::string()); !s.ok()) return s;
      continue;
    }
    if (i + 1 >= args.size()) return FlagError(flag, "needs a value");
    if (absl::Status s = apply(flag, args[++i]); !s.ok()) return s;
  }
  return absl::OkStatus();
}

bool TargetFlag(const std::string& flag) { return flag == "--name" || flag == "--pin-root"; }

void ApplyTarget(const std::string& flag, const std::string& value, RecorderTarget& target) {
  (flag == "--name" ? target.name : target.pin_root) = value;
}

absl::Status Unknown(const std::string& flag) {
  return absl::InvalidArgumentError(absl::StrFormat("unknown option \"%s\"", flag));
}

}  // namespace

absl::StatusOr<uint64_t> ParseByteSize(const std::string& text) {
  absl::string_view digits = text;
  uint64_t scale = 1;
  if (!digits.empty()) {
    switch (digits.back()) {
      case 'K':
      case 'k':
        scale = 1ULL << 10;
        break;
      case 'M':
      case 'm':
        scale = 1ULL << 20;
        break;
      case 'G':
      case 'g':
        scale = 1ULL << 30;
        break;
      default:
        break;
    }
    if (scale != 1) digits.remove_suffix(1);
  }
  uint64_t n = 0;
  if (!absl::SimpleAtoi(digits, &n) || n == 0 || n > UINT64_MAX / scale) {
    return absl::InvalidArgumentError(
        absl::StrFormat("\"%s\" is not a size (e.g. 65536, 512K, 64M, 1G)", text));
  }
  return n * scale;
}

absl::StatusOr<uint64_t> ParseDuration(const std::string& text) {
  struct Unit {
    absl::string_view suffix;
    double ns;
  };
  // "ms" before "s": the longest suffix that matches wins.
  constexpr Unit kUnits[] = {{"ms", 1e6}, {"s", 1e9}, {"m", 60e9}, {"h", 3600e9}};
  absl::string_view number = text;
  double scale = 1e9;
  for (const Unit& u : kUnits) {
    if (absl::EndsWith(number, u.suffix)) {
      number.remove_suffix(u.suffix.size());
      scale = u.ns;
      break;
    }
  }
  double value = 0;
  if (!absl::SimpleAtod(number, &value) || !(value > 0) || value * scale > 1e18) {
    return absl::InvalidArgumentError(
        absl::StrFormat("\"%s\" is not a duration (e.g. 500ms, 10s, 5m, 2h)", text));
  }
  return static_cast<uint64_t>(value * scale);
}

absl::StatusOr<RecorderStartOptions> ParseRecorderStartOptions(
    const std::vector<std::string>& args) {
  RecorderStartOptions o;
  absl::Status s = ForEachFlag(
      args, [](const std::string& f) { return f != "--per-cpu"; },
      [&](const std::string& flag, const std::string& value) -> absl::Status {
        if (TargetFlag(flag)) {
          ApplyTarget(flag, value, o.target);
        } else if (flag == "--per-cpu") {
          o.per_cpu = true;
        } else if (flag == "--size") {
          absl::StatusOr<uint64_t> bytes = ParseByteSize(value);
          if (!bytes.ok()) return FlagError(flag, std::string(bytes.status().message()));
          o.size_bytes = *bytes;
        } else if (flag == "--syscalls") {
          absl::StatusOr<std::vector<uint32_t>> ids = engine::ParseSyscallList(value);
          if (!ids.ok()) return FlagError(flag, std::string(ids.status().message()));
          o.syscalls = *std::move(ids);
        } else if (flag == "--cgroup") {
          o.cgroup_path = value;
        } else {
          return Unknown(flag);
        }
        return absl::OkStatus();
      });
  if (!s.ok()) return s;
  return o;
}

absl::StatusOr<RecorderTarget> ParseRecorderStopOptions(const std::vector<std::string>& args) {
  RecorderTarget target;
  absl::Status s = ForEachFlag(
      args, [](const std::string&) { return true; },
      [&](const std::string& flag, const std::string& value) -> absl::Status {
        if (!TargetFlag(flag)) return Unknown(flag);
        ApplyTarget(flag, value, target);
        return absl::OkStatus();
      });
  if (!s.ok()) return s;
  return target;
}

absl::StatusOr<DumpOptions> ParseDumpOptions(const std::vector<std::string>& args) {
  DumpOptions o;
  absl::Status s = ForEachFlag(
      args, [](const std::string& f) { return f != "--json"; },
      [&](const std::string& flag, const std::string& value) -> absl::Status {
        if (TargetFlag(flag)) {
          ApplyTarget(flag, value, o.target);
        } else if (flag == "--json") {
          o.json = true;
        } else if (flag == "--last") {
          if (!absl::SimpleAtoi(value, &o.last) || o.last == 0) {
            return FlagError(flag, absl::StrFormat("\"%s\" is not a count of at least 1", value));
          }
        } else if (flag == "--since") {
          absl::StatusOr<uint64_t> ns = ParseDuration(value);
          if (!ns.ok()) return FlagError(flag, std::string(ns.status().message()));
          o.since_ns = *ns;
        } else {
          return Unknown(flag);
        }
        return absl::OkStatus();
      });
  if (!s.ok()) return s;
  if (o.last != 0 && o.since_ns != 0) {
    return absl::InvalidArgumentError("--last and --since cannot be used together");
  }
  return o;
}

}  // namespace kestrel::cli
