#include "recorder_command.h"

#include <cstdio>

#include "absl/strings/str_format.h"
#include "cgroup_id.h"
#include "libpman_recorder.h"
#include "preflight.h"
#include "recorder_options.h"
#include "stderr_log.h"

namespace kestrel::cli {
namespace {

pman_recorder_options PmanOptions(const RecorderTarget& target) {
  pman_recorder_options o;
  pman_recorder_default_options(&o);
  o.name = target.name.c_str();
  o.pin_root = target.pin_root.c_str();
  o.log_fn = LogToStderr;
  o.log_ctx = CommandLogContext("kestrel recorder");
  return o;
}

int Fail(const char* what, const absl::Status& status) {
  std::fprintf(stderr, "kestrel recorder %s: %s\n%s", what, std::string(status.message()).c_str(),
               status.code() == absl::StatusCode::kInvalidArgument ? kRecorderUsage : "");
  return status.code() == absl::StatusCode::kInvalidArgument ? 2 : 1;
}

int Start(const std::vector<std::string>& args) {
  absl::StatusOr<RecorderStartOptions> options = ParseRecorderStartOptions(args);
  if (!options.ok()) return Fail("start", options.status());
  if (absl::Status s = CheckCanLoadProbe(); !s.ok()) return Fail("start", s);
  pman_recorder_options o = PmanOptions(options->target);
  o.size_bytes = options->size_bytes;
  o.per_cpu = options->per_cpu;
  std::vector<uint8_t> table;
  if (options->syscalls) {
    table.assign(pman_syscall_table_size(), 0);
    for (uint32_t id : *options->syscalls) table[id] = 1;
    o.interesting = table.data();
    o.n_interesting = table.size();
  }
  if (!options->cgroup_path.empty()) {
    absl::StatusOr<uint64_t> id = CgroupIdOf(options->cgroup_path);
    if (!id.ok()) return Fail("start", id.status());
    o.cgroup_id = *id;
  }
  if (pman_recorder_start(&o) != 0) return 1;
  std::printf("recorder %s started: %s/%s\n", options->target.name.c_str(),
              options->target.pin_root.c_str(), options->target.name.c_str());
  return 0;
}

int Stop(const std::vector<std::string>& args) {
  absl::StatusOr<RecorderTarget> target = ParseRecorderStopOptions(args);
  if (!target.ok()) return Fail("stop", target.status());
  const pman_recorder_options o = PmanOptions(*target);
  if (pman_recorder_stop(&o) != 0) return 1;
  std::printf("recorder %s stopped\n", target->name.c_str());
  return 0;
}

}  // namespace

int RunRecorder(const std::vector<std::string>& args) {
  const std::string sub = args.empty() ? "" : args[0];
  const std::vector<std::string> rest(args.begin() + (args.empty() ? 0 : 1), args.end());
  if (sub == "start") return Start(rest);
  if (sub == "stop") return Stop(rest);
  if (sub == "--help" || sub == "-h" || sub == "help") {
    std::fputs(kRecorderUsage, stdout);
    return 0;
  }
  std::fputs(kRecorderUsage, stderr);
  return 2;
}

}  // namespace kestrel::cli
