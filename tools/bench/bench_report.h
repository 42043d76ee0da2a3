// What every `kestrel bench` mode returns: rows of medians measured side by
// side in one run, so the printer can show them as a table or as JSON.
#ifndef KESTREL_TOOLS_BENCH_BENCH_REPORT_H_
#define KESTREL_TOOLS_BENCH_BENCH_REPORT_H_

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kestrel::bench {

struct BenchRow {
  std::string name;              // e.g. "getppid, probe attached, not interesting"
  double value = 0;              // the median
  std::string unit;              // e.g. "ns/syscall", "events/s", "MB"
  std::optional<double> ratio;   // against the row named in `ratio_of`
  std::string ratio_of;          // baseline row name, when ratio is set
  std::optional<double> target;  // the ratio or value the issue asks for
  std::string note;              // e.g. "target missed by 12%", "peer skipped: not installed"
  std::optional<bool> met = std::nullopt;  // the verdict on `target`, set with it by Judge()
  double missed_by_pct = 0;                // how far from the target, when not met
};

// A row with just a name, a median and its unit.
inline BenchRow Row(std::string name, double value, std::string unit) {
  BenchRow row;
  row.name = std::move(name);
  row.value = value;
  row.unit = std::move(unit);
  return row;
}

struct BenchReport {
  std::string mode;  // "overhead", "throughput", "settings", "rings"
  std::vector<BenchRow> rows;
  std::vector<std::string> notes;  // machine, repetitions, skipped peers
};

}  // namespace kestrel::bench

#endif  // KESTREL_TOOLS_BENCH_BENCH_REPORT_H_
