#include "bench/bench_stats.h"

#include <algorithm>

#include "absl/strings/str_format.h"

namespace kestrel::bench {

double Median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const size_t mid = values.size() / 2;
  if (values.size() % 2 == 1) return values[mid];
  return (values[mid - 1] + values[mid]) / 2;
}

std::vector<double> PairedRatios(const std::vector<double>& num, const std::vector<double>& den) {
  std::vector<double> ratios;
  for (size_t i = 0; i < num.size() && i < den.size(); ++i) {
    if (den[i] > 0) ratios.push_back(num[i] / den[i]);
  }
  return ratios;
}

namespace {

// By how much `value` misses `target`, as a fraction of it; 0 when met.
double Miss(double value, double target, bool higher_is_better) {
  const bool met = higher_is_better ? value >= target : value <= target;
  if (met) return 0;
  return higher_is_better ? (target - value) / target : (value - target) / target;
}

}  // namespace

std::string TargetVerdict(double value, double target, bool higher_is_better) {
  const double miss = Miss(value, target, higher_is_better);
  if (miss == 0) return "target met";
  return absl::StrFormat("target missed by %.0f%%", miss * 100);
}

std::string Judge(BenchRow& row, double compared, double target, bool higher_is_better) {
  const double miss = Miss(compared, target, higher_is_better);
  row.target = target;
  row.met = miss == 0;
  row.missed_by_pct = miss * 100;
  return TargetVerdict(compared, target, higher_is_better);
}

}  // namespace kestrel::bench
