#include "kestrel/recorder/recorder_options.h"

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"
#include "absl/strings/string_view.h"
#include "engine/decode/syscall_names.h"
#include "kestrel/common/ring_options.h"
#include "libpman_recorder.h"

namespace kestrel::cli {
namespace {

// A value CLI11 reports as "FLAG: WHY" (ValidationError), the one line a
// usage error prints.
[[noreturn]] void Refuse(const std::string& flag, const absl::Status& why) {
  throw CLI::ValidationError(flag, std::string(why.message()));
}

constexpr uint64_t kMinRecorderBytes = 64 << 10;

std::string Quoted(const std::string& text) { return "\"" + absl::CEscape(text) + "\""; }

// Options take one value once: a repeated flag is a usage error, not a
// silent "last one wins".
CLI::Option* Once(CLI::Option* option) {
  return option->multi_option_policy(CLI::MultiOptionPolicy::Throw);
}

void DefineTargetOptions(CLI::App& app, RecorderTarget& target) {
  Once(app.add_option("--name", target.name, "recorder name: letters, digits, '-', '_', '.'")
           ->type_name("NAME")
           ->default_str(target.name)
           ->check(CLI::Validator(
               [](std::string& name) -> std::string {
                 if (pman_recorder_name_is_valid(name.c_str())) return "";
                 return absl::StrFormat(
                     "%s is not a recorder name: use 1 to %d letters, digits, '-', '_' or '.'",
                     Quoted(name), PMAN_RECORDER_MAX_NAME);
               },
               "")));
  Once(app.add_option("--pin-root", target.pin_root, "bpffs folder holding the recorders")
           ->type_name("DIR")
           ->default_str(target.pin_root)
           ->check(CLI::Validator(
               [](std::string& dir) -> std::string {
                 if (!dir.empty() && dir[0] == '/') return "";
                 return Quoted(dir) + " is not an absolute path";
               },
               "")));
}

// Parses without printing, for ParseXOptions.
absl::Status ParseQuietly(CLI::App& app, const std::vector<std::string>& args) {
  std::vector<std::string> reversed(args.rbegin(), args.rend());
  try {
    app.parse(reversed);
  } catch (const CLI::ParseError& e) {
    return absl::InvalidArgumentError(e.what());
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<uint64_t> ParseRecorderSize(const std::string& text) {
  // The ring flags' size parser, minus its presets: those name capture
  // buffer sizes, which mean nothing for a recorder.
  if (text.empty() || !absl::ascii_isdigit(static_cast<unsigned char>(text[0]))) {
    return absl::InvalidArgumentError(
        absl::StrFormat("%s is not a size (e.g. 65536, 512K, 64M, 1G)", Quoted(text)));
  }
  absl::StatusOr<uint64_t> bytes = ParseBufferBytes(text);
  if (!bytes.ok()) {
    return absl::InvalidArgumentError(
        absl::StrFormat("%s is not a size (e.g. 65536, 512K, 64M, 1G)", Quoted(text)));
  }
  return bytes;
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
        absl::StrFormat("%s is not a duration (e.g. 500ms, 10s, 5m, 2h)", Quoted(text)));
  }
  return static_cast<uint64_t>(value * scale);
}

void DefineRecorderStartOptions(CLI::App& app, RecorderStartOptions& o) {
  DefineTargetOptions(app, o.target);
  Once(app.add_option_function<std::string>(
              "--size",
              [&o](const std::string& text) {
                absl::StatusOr<uint64_t> bytes = ParseRecorderSize(text);
                if (!bytes.ok()) Refuse("--size", bytes.status());
                // libpman's rule too; checked here so it is a usage error.
                if (*bytes < kMinRecorderBytes || (*bytes & (*bytes - 1)) != 0) {
                  Refuse("--size", absl::InvalidArgumentError(
                                       Quoted(text) + " is not a power of two of at least 64K"));
                }
                o.size_bytes = *bytes;
              },
              "bytes of records kept, a power of two of at least 64K (K/M/G suffixes)")
           ->type_name("BYTES")
           ->default_str("64M"));
  Once(app.add_flag("--per-cpu", o.per_cpu,
                    "one ring per CPU (size split among them) instead of one shared ring"));
  Once(app.add_option_function<std::string>(
              "--syscalls",
              [&o](const std::string& list) {
                absl::StatusOr<std::vector<uint32_t>> ids = engine::ParseSyscallList(list);
                if (!ids.ok()) Refuse("--syscalls", ids.status());
                o.syscalls = *std::move(ids);
              },
              "record only these syscalls (default: every one)")
           ->type_name("NAME,..."));
  Once(app.add_option("--cgroup", o.cgroup_path,
                      "record only tasks of this cgroup (v2 path, absolute or relative to the "
                      "cgroup v2 mount)")
           ->type_name("PATH"));
}

void DefineRecorderStopOptions(CLI::App& app, RecorderTarget& target) {
  DefineTargetOptions(app, target);
}

void DefineRecorderOptions(CLI::App& app, RecorderOptions& options) {
  app.require_subcommand(1);
  CLI::App* start = app.add_subcommand("start", kRecorderStartDescription);
  start->footer(std::string("Example:\n  ") + kRecorderStartExample);
  DefineRecorderStartOptions(*start, options.start);
  CLI::App* stop = app.add_subcommand("stop", kRecorderStopDescription);
  stop->footer(std::string("Example:\n  ") + kRecorderStopExample);
  DefineRecorderStopOptions(*stop, options.stop);
}

void DefineDumpOptions(CLI::App& app, DumpOptions& o) {
  DefineTargetOptions(app, o.target);
  CLI::Option* last =
      Once(app.add_option_function<std::string>(
                  "--last",
                  [&o](const std::string& text) {
                    if (!absl::SimpleAtoi(text, &o.last) || o.last == 0) {
                      Refuse("--last", absl::InvalidArgumentError(Quoted(text) +
                                                                  " is not a count of at least 1"));
                    }
                  },
                  "print only the newest N records")
               ->type_name("N"));
  CLI::Option* since = Once(app.add_option_function<std::string>(
                                   "--since",
                                   [&o](const std::string& text) {
                                     absl::StatusOr<uint64_t> ns = ParseDuration(text);
                                     if (!ns.ok()) Refuse("--since", ns.status());
                                     o.since_ns = *ns;
                                   },
                                   "print only records of the last DURATION (500ms, 10s, 5m, 2h)")
                                ->type_name("DURATION"));
  last->excludes(since);
  CLI::Option* json = Once(app.add_flag("--json", o.json, "one JSON object per record"));
  // A capture file holds the records themselves, not their text.
  Once(app.add_option("-w,--write", o.write_path,
                      "save the records as a capture file instead of printing them (read it "
                      "with kestrel capture -r)")
           ->type_name("FILE"))
      ->excludes(json);
}

absl::StatusOr<RecorderStartOptions> ParseRecorderStartOptions(
    const std::vector<std::string>& args) {
  RecorderStartOptions o;
  CLI::App app;
  DefineRecorderStartOptions(app, o);
  if (absl::Status s = ParseQuietly(app, args); !s.ok()) return s;
  return o;
}

absl::StatusOr<RecorderTarget> ParseRecorderStopOptions(const std::vector<std::string>& args) {
  RecorderTarget target;
  CLI::App app;
  DefineRecorderStopOptions(app, target);
  if (absl::Status s = ParseQuietly(app, args); !s.ok()) return s;
  return target;
}

absl::StatusOr<DumpOptions> ParseDumpOptions(const std::vector<std::string>& args) {
  DumpOptions o;
  CLI::App app;
  DefineDumpOptions(app, o);
  if (absl::Status s = ParseQuietly(app, args); !s.ok()) return s;
  return o;
}

}  // namespace kestrel::cli
