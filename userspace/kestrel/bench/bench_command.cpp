#include "kestrel/bench/bench_command.h"

#include "bench/capture_file_bench.h"
#include "bench/engine_bench.h"
#include "bench/recorder_bench.h"
#include "bench/rings_bench.h"
#include "bench/settings_bench.h"
#include "bench/soak_bench.h"
#include "bench/startup_bench.h"

#include <sys/utsname.h>

#include <cstdio>
#include <fstream>
#include <memory>
#include <optional>

#include "absl/status/statusor.h"
#include "absl/strings/str_format.h"
#include "agent/probe/preflight.h"
#include "bench/bench_modes.h"
#include "bench/bench_report.h"
#include "bench/bench_report_printer.h"
#include "bench/syscall_loop.h"
#include "kestrel/bench/bench_options.h"
#include "kestrel/common/cli_app.h"

namespace kestrel::cli {
namespace {

using bench::BenchReport;

std::string CpuModel() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      const size_t colon = line.find(':');
      if (colon != std::string::npos) return line.substr(colon + 2);
    }
  }
  return "unknown CPU";
}

std::string MachineNote() {
  utsname u{};
  uname(&u);
  return absl::StrFormat("machine: %s %s, %d CPUs (%s)", u.sysname, u.release, bench::OnlineCpus(),
                         CpuModel());
}

absl::StatusOr<BenchReport> RunMode(const std::string& mode, const BenchOptions& all) {
  const int repetitions = all.repetitions;
  if (mode == "overhead") {
    bench::OverheadBenchOptions options;
    options.repetitions = repetitions;
    options.rules_file = all.overhead_rules_file;
    return bench::RunOverheadBench(options);
  }
  if (mode == "throughput") return bench::RunThroughputBench(repetitions);
  if (mode == "settings") return bench::RunSettingsBench(repetitions);
  if (mode == "rings") {
    bench::RingsBenchOptions options;
    options.repetitions = repetitions;
    return bench::RunRingsBench(options);
  }
  if (mode == "recorder") {
    bench::RecorderBenchOptions options;
    options.reps = repetitions;
    return bench::RunRecorderBench(options);
  }
  if (mode == "engine") {
    bench::EngineBenchOptions options;
    options.repetitions = repetitions;
    options.state = all.engine_state;
    options.events = all.engine_events;
    options.rules_file = all.engine_rules_file;
    options.rule_by_rule = all.engine_rule_by_rule;
    options.live = all.engine_live;
    return bench::RunEngineBench(options);
  }
  if (mode == "capture-file") {
    bench::CaptureFileBenchOptions options;
    options.repetitions = repetitions;
    options.file_records = all.capture_file_records;
    return bench::RunCaptureFileBench(options);
  }
  if (mode == "startup") {
    bench::StartupBenchOptions options;
    options.repetitions = repetitions;
    options.rules_file = all.startup_rules_file;
    return bench::RunStartupBench(options);
  }
  if (mode == "soak") {
    bench::SoakBenchOptions options;
    options.duration_s = all.soak_duration_s;
    return bench::RunSoakBench(options);
  }
  return absl::InvalidArgumentError(absl::StrFormat("unknown mode \"%s\"", mode));
}

}  // namespace

int RunBench(const std::vector<std::string>& args) {
  BenchOptions options;
  std::unique_ptr<CLI::App> app = MakeBenchApp(options);
  if (std::optional<int> exit_code = ParseVerb(*app, args)) return *exit_code;
  if (absl::Status s = agent::CheckCanLoadProbe(); !s.ok()) {
    std::fprintf(stderr, "kestrel bench: %s\n", std::string(s.message()).c_str());
    return kExitFailure;
  }
  std::vector<BenchReport> reports;
  int failures = 0;
  for (const std::string& mode : options.modes) {
    if (!options.json) std::fprintf(stderr, "kestrel bench: running %s...\n", mode.c_str());
    absl::StatusOr<BenchReport> report = RunMode(mode, options);
    if (!report.ok()) {
      std::fprintf(stderr, "kestrel bench %s: %s\n", mode.c_str(),
                   std::string(report.status().message()).c_str());
      ++failures;
      continue;
    }
    report->notes.insert(report->notes.begin(), MachineNote());
    reports.push_back(*std::move(report));
  }
  const std::string out =
      options.json ? bench::FormatReportsAsJson(reports) : bench::FormatReportsAsTable(reports);
  std::fputs(out.c_str(), stdout);
  return failures == 0 ? kExitOk : kExitFailure;
}

}  // namespace kestrel::cli
