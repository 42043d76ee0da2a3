#include "bench/engine_bench.h"

#include <functional>
#include <memory>
#include <vector>

#include "absl/strings/str_format.h"
#include "bench/bench_stats.h"
#include "bench/conditions_stage.h"
#include "bench/stored_stream.h"
#include "bench/syscall_loop.h"
#include "engine/decode/event_decoder.h"
#include "engine/decode/generic_syscall.h"
#include "engine/decode/record_view.h"
#include "engine/state/thread_table.h"
#include "shared/event_types.h"

namespace kestrel::cli::bench {
namespace {

// libsinsp's parsing and state update rate, Falco 0.63, measured on this
// machine class with ../shared/falco-anchor's workload (issue 17).
constexpr double kLibsinspStateEventsPerSecond = 4.68e6;

// Calls `visit` on every stored record; returns events per CPU second.
double Pass(const StoredStream& stream,
            const std::function<void(const engine::RecordView&)>& visit) {
  const double start = ThreadCpuSeconds();
  const uint8_t* base = stream.bytes.data();
  const size_t size = stream.bytes.size();
  for (uint32_t off : stream.offsets) {
    absl::StatusOr<engine::RecordView> view = engine::RecordView::Parse(base + off, size - off);
    if (view.ok()) visit(*view);
  }
  const double cpu = ThreadCpuSeconds() - start;
  return cpu > 0 ? static_cast<double>(stream.offsets.size()) / cpu : 0;
}

uint64_t g_sink = 0;  // keeps the decode from being optimized away

void DecodeOnly(const engine::RecordView& view) {
  if (view.header().type == KESTREL_EVT_GENERIC_SYSCALL) {
    absl::StatusOr<engine::GenericSyscall> sc = engine::DecodeGenericSyscall(view);
    g_sink += sc.ok();
    return;
  }
  absl::StatusOr<engine::DecodedEvent> event = engine::DecodedEvent::Decode(view);
  g_sink += event.ok();
}

void AddStateRows(BenchReport& report, const std::vector<double>& decode,
                  const std::vector<double>& state) {
  const double state_rate = Median(state);
  BenchRow vs_decode = Row("decode + state", state_rate, "events/s");
  vs_decode.ratio = Median(PairedRatios(state, decode));
  vs_decode.ratio_of = "decode only";
  report.notes.push_back("decode + state against decode only (target >= 0.5): " +
                         Judge(vs_decode, *vs_decode.ratio, 0.5, /*higher_is_better=*/true));
  report.rows.push_back(vs_decode);
  BenchRow vs_sinsp = Row("decode + state, against libsinsp", state_rate, "events/s");
  vs_sinsp.ratio = state_rate / kLibsinspStateEventsPerSecond;
  vs_sinsp.ratio_of = "libsinsp parsing + state (Falco 0.63, 4.68 M events/s)";
  report.notes.push_back("decode + state against libsinsp (target >= 2): " +
                         Judge(vs_sinsp, *vs_sinsp.ratio, 2.0, /*higher_is_better=*/true));
  report.rows.push_back(vs_sinsp);
}

}  // namespace

absl::StatusOr<BenchReport> RunEngineBench(const EngineBenchOptions& options) {
  absl::StatusOr<StoredStream> stream = RecordMixedStream(options.events);
  if (!stream.ok()) return stream.status();

  std::vector<double> decode, state, conditions;
  for (int rep = 0; rep < options.repetitions; ++rep) {
    decode.push_back(Pass(*stream, DecodeOnly));
    if (!options.state) continue;
    engine::ThreadTableOptions table_options;
    table_options.proc_fallback = false;  // no /proc read inside the measured loop
    engine::ThreadTable table(table_options);
    table.SeedFromProc();
    state.push_back(Pass(*stream, [&](const engine::RecordView& view) { table.Apply(view); }));
    absl::StatusOr<std::unique_ptr<ConditionsStage>> stage = ConditionsStage::Make();
    if (!stage.ok()) return stage.status();
    conditions.push_back(
        Pass(*stream, [&](const engine::RecordView& view) { (*stage)->Visit(view); }));
  }

  BenchReport report;
  report.mode = "engine";
  report.rows.push_back(Row("decode only", Median(decode), "events/s"));
  if (options.state) {
    AddStateRows(report, decode, state);
    BenchRow with_conditions = Row("decode + state + conditions", Median(conditions), "events/s");
    with_conditions.ratio = Median(PairedRatios(conditions, state));
    with_conditions.ratio_of = "decode + state";
    report.rows.push_back(with_conditions);
    report.notes.push_back(absl::StrFormat(
        "conditions: %d evaluated on every event (an in list, pmatch, a regex, proc.aname any "
        "ancestor, startswith)",
        ConditionsStage::kConditionCount));
  }
  report.notes.push_back(absl::StrFormat(
      "stream: %u real records (%.1f MB, %u dropped while recording); one thread, CPU time, "
      "median of %d passes per stage, stages interleaved",
      stream->offsets.size(), static_cast<double>(stream->bytes.size()) / 1e6, stream->drops,
      options.repetitions));
  if (g_sink == 0) report.notes.push_back("no record decoded");
  return report;
}

}  // namespace kestrel::cli::bench
