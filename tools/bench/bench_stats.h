// Statistics the bench reports: medians of repetitions and of paired ratios.
#ifndef KESTREL_TOOLS_BENCH_BENCH_STATS_H_
#define KESTREL_TOOLS_BENCH_BENCH_STATS_H_

#include <optional>
#include <string>
#include <vector>

#include "bench/bench_report.h"

namespace kestrel::bench {

// The median; the mean of the two middle values for an even count; 0 when empty.
double Median(std::vector<double> values);

// Per-repetition ratios num[i] / den[i], skipping repetitions whose
// denominator is not positive (noise can make an added cost negative).
std::vector<double> PairedRatios(const std::vector<double>& num, const std::vector<double>& den);

// "target met", or "target missed by N%" for a ratio that must stay at or
// below `target` (`higher_is_better` flips the sense).
std::string TargetVerdict(double value, double target, bool higher_is_better = false);

// Sets `row`'s target, verdict and miss from `compared` (its ratio or its
// value) and returns TargetVerdict's text for the note.
std::string Judge(BenchRow& row, double compared, double target, bool higher_is_better = false);

}  // namespace kestrel::bench

#endif  // KESTREL_TOOLS_BENCH_BENCH_STATS_H_
