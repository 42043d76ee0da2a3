#include "bench/settings_bench.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"
#include "agent/probe/probe_loader.h"
#include "bench/bench_stats.h"
#include "bench/syscall_loop.h"
#include "internal/libpman_bench.h"
#include "libpman.h"

namespace kestrel::bench {
namespace {

constexpr uint32_t kUpdatesPerRun = 20000;
constexpr uint64_t kGetppidChunk = 20000;
constexpr int kPairsPerRun = 5;
constexpr int kLoadCpu = 0;
// A settings change by mmap store must be this many times cheaper than the
// same change through bpf_map_update_elem.
constexpr double kMmapCheaperTarget = 10;

struct Mode {
  uint32_t storage;
  const char* label;
};
constexpr Mode kModes[] = {{PMAN_SETTINGS_STORAGE_BSS, "bss"},
                           {PMAN_SETTINGS_STORAGE_ARRAY, "array"}};

// Every repetition's numbers of one mode.
struct Samples {
  std::vector<double> toggle, publish, map_update, base, added;
  pman_settings_costs last{};
};

absl::StatusOr<agent::HandlePtr> LoadDetached(uint32_t storage) {
  pman_options opts;
  pman_default_options(&opts);
  opts.buffer_bytes = 1 << 20;
  opts.settings_storage = storage;
  pman_handle* raw = nullptr;
  if (int rc = pman_init(&opts, &raw); rc != 0) {
    return absl::InternalError(absl::StrFormat("pman_init: %d", rc));
  }
  agent::HandlePtr handle(raw);
  if (pman_open(raw) != 0 || pman_load(raw) != 0) {
    return absl::FailedPreconditionError("loading the probe failed (root or CAP_BPF needed)");
  }
  return handle;
}

absl::Status MeasureOnce(pman_handle* h, Samples& s) {
  if (int rc = pman_measure_settings_costs(h, kUpdatesPerRun, &s.last); rc != 0) {
    return absl::InternalError(absl::StrFormat("measuring updates: %d", rc));
  }
  s.toggle.push_back(s.last.mmap_toggle_ns);
  s.publish.push_back(s.last.mmap_publish_ns);
  s.map_update.push_back(s.last.map_update_ns);
  // Every syscall is uninteresting: this is what the machine pays for the
  // probe being there at all.
  // Adjacent pairs of chunks, the order swapped every pair, so the
  // machine's drift cancels within each pair.
  std::vector<double> base, added;
  for (int p = 0; p < kPairsPerRun; ++p) {
    absl::StatusOr<ChunkPair> pair = MeasurePair(
        Workload::kGetppid, kGetppidChunk, p % 2 == 1,
        [h]() -> absl::Status {
          if (pman_attach(h) != 0) return absl::InternalError("attaching the probe");
          return absl::OkStatus();
        },
        [h] { pman_detach(h); });
    if (!pair.ok()) return pair.status();
    base.push_back(pair->without_ns);
    added.push_back(pair->with_ns - pair->without_ns);
  }
  s.base.push_back(Median(std::move(base)));
  s.added.push_back(Median(std::move(added)));
  return absl::OkStatus();
}

std::string Named(const char* what, const Mode& m) {
  return absl::StrFormat("%s (%s)", what, m.label);
}

void AddModeRows(const Mode& m, const Samples& s, BenchReport& report) {
  BenchRow syscall_row =
      Row(Named("settings change via bpf_map_update_elem", m), Median(s.map_update), "ns/update");
  BenchRow mmap_row =
      Row(Named("settings change via mmap store", m), Median(s.toggle), "ns/update");
  mmap_row.ratio = syscall_row.value / mmap_row.value;
  mmap_row.ratio_of = syscall_row.name;
  mmap_row.note = absl::StrFormat(
      "%s; %.1fx cheaper, %.0fx asked",
      Judge(mmap_row, *mmap_row.ratio, kMmapCheaperTarget, /*higher_is_better=*/true),
      *mmap_row.ratio, kMmapCheaperTarget);
  report.rows.push_back(syscall_row);
  report.rows.push_back(mmap_row);
  report.rows.push_back(
      Row(Named("whole settings publish via mmap seqlock", m), Median(s.publish), "ns/update"));
  report.rows.push_back(Row(Named("getppid, probe detached", m), Median(s.base), "ns/syscall"));
  report.rows.push_back(
      Row(Named("ns added per uninteresting getppid", m), Median(s.added), "ns/syscall"));
  report.rows.push_back(
      Row(Named("sys_exit fast path after the verifier", m), s.last.xlated_insns, "BPF insns"));
  report.rows.push_back(Row(Named("sys_exit fast path JIT-ed", m), s.last.jited_bytes, "bytes"));
}

// array / bss, the median of per-repetition ratios where both were measured
// side by side.
BenchRow RatioRow(const char* what, const std::vector<double>& array,
                  const std::vector<double>& bss) {
  BenchRow row =
      Row(absl::StrFormat("array / bss: %s", what), Median(PairedRatios(array, bss)), "x");
  return row;
}

}  // namespace

absl::StatusOr<BenchReport> RunSettingsBench(int repetitions) {
  if (repetitions < 1) return absl::InvalidArgumentError("repetitions must be at least 1");
  std::map<uint32_t, agent::HandlePtr> handles;
  for (const Mode& m : kModes) {
    absl::StatusOr<agent::HandlePtr> h = LoadDetached(m.storage);
    if (!h.ok()) return h.status();
    handles[m.storage] = *std::move(h);
  }
  if (absl::Status s = PinThisThread(kLoadCpu); !s.ok()) return s;
  std::map<uint32_t, Samples> samples;
  absl::Status status;
  for (int rep = 0; rep < repetitions && status.ok(); ++rep) {
    // Alternate which mode goes first, so drift favours neither.
    for (int i = 0; i < 2 && status.ok(); ++i) {
      const Mode& m = kModes[(rep + i) % 2];
      status = MeasureOnce(handles[m.storage].get(), samples[m.storage]);
    }
  }
  (void)UnpinThisThread();
  if (!status.ok()) return status;

  BenchReport report;
  report.mode = "settings";
  for (const Mode& m : kModes) AddModeRows(m, samples[m.storage], report);
  const Samples& bss = samples[PMAN_SETTINGS_STORAGE_BSS];
  const Samples& array = samples[PMAN_SETTINGS_STORAGE_ARRAY];
  report.rows.push_back(RatioRow("ns added per uninteresting getppid", array.added, bss.added));
  report.rows.push_back(RatioRow("fast path BPF insns", {double(array.last.xlated_insns)},
                                 {double(bss.last.xlated_insns)}));
  report.rows.push_back(RatioRow("fast path JIT-ed bytes", {double(array.last.jited_bytes)},
                                 {double(bss.last.jited_bytes)}));
  report.rows.push_back(RatioRow("mmap store", array.toggle, bss.toggle));
  report.rows.push_back(RatioRow("whole settings publish", array.publish, bss.publish));
  report.rows.push_back(RatioRow("bpf_map_update_elem", array.map_update, bss.map_update));
  report.notes.push_back(absl::StrFormat(
      "%d repetition(s), modes alternating first; per mode and repetition %u updates and %d "
      "attached/detached pairs of %u getppid calls on CPU %d; medians",
      repetitions, kUpdatesPerRun, kPairsPerRun, kGetppidChunk, kLoadCpu));
  report.notes.push_back(
      "fast path = the sys_exit program's main function, without its out-of-line capture "
      "subprograms");
  return report;
}

}  // namespace kestrel::bench
