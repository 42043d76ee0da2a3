// A temporary runner for RunRingsBench until `kestrel bench rings` exists:
// prints the report as plain rows.
#include <cstdio>
#include <cstdlib>

#include "bench/rings_bench.h"

int main(int argc, char** argv) {
  kestrel::cli::bench::RingsBenchOptions options;
  if (argc > 1) options.seconds_per_run = std::atof(argv[1]);
  if (argc > 2) options.repetitions = std::atoi(argv[2]);
  absl::StatusOr<kestrel::cli::bench::BenchReport> report =
      kestrel::cli::bench::RunRingsBench(options);
  if (!report.ok()) {
    std::fprintf(stderr, "bench rings: %s\n", std::string(report.status().message()).c_str());
    return 1;
  }
  for (const std::string& note : report->notes) std::printf("# %s\n", note.c_str());
  for (const auto& row : report->rows) {
    std::printf("%-72s %14.1f %s", row.name.c_str(), row.value, row.unit.c_str());
    if (row.ratio) std::printf("   (x%.2f of the ceiling)", *row.ratio);
    std::printf("\n");
  }
  return 0;
}
