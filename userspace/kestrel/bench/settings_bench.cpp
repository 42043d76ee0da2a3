#include "bench/settings_bench.h"

#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"
#include "libpman.h"

namespace kestrel::cli::bench {
namespace {

constexpr uint32_t kUpdatesPerRun = 20000;
constexpr int kSyscallsPerRun = 200000;

struct HandleCloser {
  void operator()(pman_handle* h) const { pman_close(h); }
};

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

double GetppidNs() {
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < kSyscallsPerRun; ++i) syscall(SYS_getppid);
  return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start)
             .count() /
         kSyscallsPerRun;
}

}  // namespace

absl::StatusOr<BenchReport> RunSettingsBench(int repetitions) {
  if (repetitions < 1) return absl::InvalidArgumentError("repetitions must be at least 1");
  pman_options opts;
  pman_default_options(&opts);
  opts.buffer_bytes = 1 << 20;
  pman_handle* raw = nullptr;
  if (int rc = pman_init(&opts, &raw); rc != 0) {
    return absl::InternalError(absl::StrFormat("pman_init: %d", rc));
  }
  std::unique_ptr<pman_handle, HandleCloser> handle(raw);
  if (pman_open(raw) != 0 || pman_load(raw) != 0) {
    return absl::FailedPreconditionError("loading the probe failed (root or CAP_BPF needed)");
  }

  std::vector<double> toggle, publish, map_update, detached, attached;
  pman_settings_costs costs{};
  for (int rep = 0; rep < repetitions; ++rep) {
    if (int rc = pman_measure_settings_costs(raw, kUpdatesPerRun, &costs); rc != 0) {
      return absl::InternalError(absl::StrFormat("measuring updates: %d", rc));
    }
    toggle.push_back(costs.mmap_toggle_ns);
    publish.push_back(costs.mmap_publish_ns);
    map_update.push_back(costs.map_update_ns);
    // Every syscall is uninteresting: this is what the machine pays for the
    // probe being there at all.
    detached.push_back(GetppidNs());
    if (pman_attach(raw) != 0) return absl::InternalError("attaching the probe");
    attached.push_back(GetppidNs());
    if (pman_detach(raw) != 0) return absl::InternalError("detaching the probe");
  }

  BenchReport report;
  report.mode = "settings";
  BenchRow syscall_row =
      Row("settings change via bpf_map_update_elem (.bss value)", Median(map_update), "ns/update");
  BenchRow mmap_row = Row("settings change via mmap store (.bss)", Median(toggle), "ns/update");
  mmap_row.ratio = syscall_row.value / mmap_row.value;
  mmap_row.ratio_of = syscall_row.name;
  mmap_row.target = 10;
  if (*mmap_row.ratio < 10) {
    mmap_row.note = absl::StrFormat("target missed: %.1fx cheaper, 10x asked", *mmap_row.ratio);
  }
  report.rows.push_back(syscall_row);
  report.rows.push_back(mmap_row);
  report.rows.push_back(
      Row("whole settings publish via mmap seqlock (.bss)", Median(publish), "ns/update"));
  const BenchRow bare = Row("getppid, probe detached", Median(detached), "ns/syscall");
  BenchRow with_probe =
      Row("getppid, probe attached, not interesting (.bss)", Median(attached), "ns/syscall");
  with_probe.ratio = with_probe.value / bare.value;
  with_probe.ratio_of = bare.name;
  report.rows.push_back(bare);
  report.rows.push_back(with_probe);
  report.rows.push_back(Row("ns added per uninteresting syscall (.bss)",
                            with_probe.value - bare.value, "ns/syscall"));
  report.rows.push_back(
      Row("sys_exit program after the verifier (.bss)", costs.xlated_insns, "BPF insns"));
  report.rows.push_back(Row("sys_exit program JIT-ed (.bss)", costs.jited_bytes, "bytes"));
  report.notes.push_back(
      absl::StrFormat("%d repetition(s); %u updates and %d getppid calls per repetition; medians",
                      repetitions, kUpdatesPerRun, kSyscallsPerRun));
  report.notes.push_back("storage mode: .bss only; the BPF_F_MMAPABLE array mode is not built yet");
  return report;
}

}  // namespace kestrel::cli::bench
