#include "bench_stats.h"

#include <algorithm>

#include "absl/strings/str_format.h"

namespace kestrel::cli::bench {

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

std::string TargetVerdict(double value, double target, bool higher_is_better) {
  const bool met = higher_is_better ? value >= target : value <= target;
  if (met) return "target met";
  const double miss = higher_is_better ? (target - value) / target : (value - target) / target;
  return absl::StrFormat("target missed by %.0f%%", miss * 100);
}

}  // namespace kestrel::cli::bench
