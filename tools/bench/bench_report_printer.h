// Prints bench reports as an aligned table for people or as JSON for machines.
#ifndef KESTREL_TOOLS_BENCH_BENCH_REPORT_PRINTER_H_
#define KESTREL_TOOLS_BENCH_BENCH_REPORT_PRINTER_H_

#include <string>
#include <vector>

#include "bench/bench_report.h"

namespace kestrel::bench {

std::string FormatReportsAsTable(const std::vector<BenchReport>& reports);

// One JSON object: {"reports": [{"mode": ..., "rows": [...], "notes": [...]}]}.
std::string FormatReportsAsJson(const std::vector<BenchReport>& reports);

}  // namespace kestrel::bench

#endif  // KESTREL_TOOLS_BENCH_BENCH_REPORT_PRINTER_H_
