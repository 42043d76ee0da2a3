#include "kestrel/recorder/recorder_command.h"

#include <cerrno>
#include <cstdio>

#include "absl/strings/str_format.h"
#include "agent/probe/preflight.h"
#include "kestrel/common/cgroup_id.h"
#include "kestrel/common/cli_app.h"
#include "kestrel/common/stderr_log.h"
#include "kestrel/recorder/recorder_options.h"
#include "libpman_recorder.h"

namespace kestrel::cli {
namespace {

constexpr char kStartCommand[] = "kestrel recorder start";
constexpr char kStopCommand[] = "kestrel recorder stop";

pman_recorder_options PmanOptions(const RecorderTarget& target, const char* command) {
  pman_recorder_options o;
  pman_recorder_default_options(&o);
  o.name = target.name.c_str();
  o.pin_root = target.pin_root.c_str();
  o.log_fn = LogToStderr;
  o.log_ctx = CommandLogContext(command);
  return o;
}

int Fail(const char* command, const absl::Status& status) {
  std::fprintf(stderr, "%s: %s\n", command, std::string(status.message()).c_str());
  return kExitFailure;
}

int Start(const RecorderStartOptions& options) {
  if (absl::Status s = agent::CheckCanLoadProbe(); !s.ok()) return Fail(kStartCommand, s);
  pman_recorder_options o = PmanOptions(options.target, kStartCommand);
  o.size_bytes = options.size_bytes;
  o.per_cpu = options.per_cpu;
  std::vector<uint8_t> table;
  if (options.syscalls) {
    table.assign(pman_syscall_table_size(), 0);
    for (uint32_t id : *options.syscalls) table[id] = 1;
    o.interesting = table.data();
    o.n_interesting = table.size();
  }
  if (!options.cgroup_path.empty()) {
    absl::StatusOr<uint64_t> id = CgroupIdOf(options.cgroup_path);
    if (!id.ok()) return Fail(kStartCommand, id.status());
    o.cgroup_id = *id;
  }
  // -EINVAL: the options, as libpman judged them (a size too small to split
  // among the CPUs), so a usage error.
  if (const int rc = pman_recorder_start(&o); rc != 0) {
    return rc == -EINVAL ? kExitUsage : kExitFailure;
  }
  std::printf("recorder %s started: %s/%s\n", options.target.name.c_str(),
              options.target.pin_root.c_str(), options.target.name.c_str());
  return kExitOk;
}

int Stop(const RecorderTarget& target) {
  const pman_recorder_options o = PmanOptions(target, kStopCommand);
  const int rc = pman_recorder_stop(&o);
  if (rc < 0) return kExitFailure;
  if (rc == 1) {
    std::printf("recorder %s removed: it was half-made (its start had been interrupted)\n",
                target.name.c_str());
  } else {
    std::printf("recorder %s stopped\n", target.name.c_str());
  }
  return kExitOk;
}

}  // namespace

int RunRecorder(const std::vector<std::string>& args) {
  // A subcommand gets an app of its own, so its usage errors and --help
  // carry its full name ("kestrel recorder start: --name: ...").
  const std::string sub = args.empty() ? "" : args[0];
  const std::vector<std::string> rest(args.begin() + (args.empty() ? 0 : 1), args.end());
  if (sub == "start") {
    RecorderStartOptions options;
    auto app = MakeVerbApp("recorder start", kRecorderStartDescription, kRecorderStartExample);
    DefineRecorderStartOptions(*app, options);
    if (std::optional<int> done = ParseVerb(*app, rest)) return *done;
    return Start(options);
  }
  if (sub == "stop") {
    RecorderTarget target;
    auto app = MakeVerbApp("recorder stop", kRecorderStopDescription, kRecorderStopExample);
    DefineRecorderStopOptions(*app, target);
    if (std::optional<int> done = ParseVerb(*app, rest)) return *done;
    return Stop(target);
  }
  RecorderOptions options;
  auto app = MakeVerbApp("recorder", kRecorderDescription, kRecorderExample);
  DefineRecorderOptions(*app, options);
  if (std::optional<int> done = ParseVerb(*app, args)) return *done;
  // Reached only for a subcommand CLI11 found past the first word ("--").
  if (app->got_subcommand("start")) return Start(options.start);
  return Stop(options.stop);
}

}  // namespace kestrel::cli
