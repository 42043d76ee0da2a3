#include "bench/bench_report_printer.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_format.h"

namespace kestrel::bench {
namespace {

std::string FormatValue(double v) {
  if (!std::isfinite(v)) return "-";
  if (std::fabs(v) >= 1e6) return absl::StrFormat("%.3g", v);
  if (std::fabs(v) >= 100) return absl::StrFormat("%.0f", v);
  return absl::StrFormat("%.2f", v);
}

std::string JsonString(const std::string& s) {
  std::string out = "\"";
  for (const unsigned char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (c < 0x20) {
          out += absl::StrFormat("\\u%04x", c);
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

// JSON has no NaN or infinity.
std::string JsonNumber(double v) {
  if (!std::isfinite(v)) return "null";
  return absl::StrFormat("%.6g", v);
}

}  // namespace

std::string FormatReportsAsTable(const std::vector<BenchReport>& reports) {
  std::string out;
  for (const BenchReport& report : reports) {
    out += absl::StrFormat("== %s ==\n", report.mode);
    size_t name_width = 4;
    for (const BenchRow& row : report.rows) name_width = std::max(name_width, row.name.size());
    out += absl::StrFormat("%-*s  %10s %-11s %7s %7s  %s\n", name_width, "what", "median", "unit",
                           "ratio", "target", "note");
    for (const BenchRow& row : report.rows) {
      const std::string ratio = row.ratio ? absl::StrFormat("%.2fx", *row.ratio) : "";
      const std::string target = row.target ? FormatValue(*row.target) : "";
      std::string note = row.note;
      if (row.ratio && !row.ratio_of.empty()) {
        note = absl::StrFormat("ratio of \"%s\"%s%s", row.ratio_of, note.empty() ? "" : "; ", note);
      }
      out += absl::StrFormat("%-*s  %10s %-11s %7s %7s  %s\n", name_width, row.name,
                             FormatValue(row.value), row.unit, ratio, target, note);
    }
    for (const std::string& note : report.notes) out += absl::StrFormat("  note: %s\n", note);
    out += "\n";
  }
  return out;
}

std::string FormatReportsAsJson(const std::vector<BenchReport>& reports) {
  std::string out = "{\"reports\":[";
  for (size_t r = 0; r < reports.size(); ++r) {
    const BenchReport& report = reports[r];
    out += absl::StrFormat("%s{\"mode\":%s,\"rows\":[", r ? "," : "", JsonString(report.mode));
    for (size_t i = 0; i < report.rows.size(); ++i) {
      const BenchRow& row = report.rows[i];
      out += absl::StrFormat("%s{\"name\":%s,\"value\":%s,\"unit\":%s", i ? "," : "",
                             JsonString(row.name), JsonNumber(row.value), JsonString(row.unit));
      if (row.ratio) {
        out += absl::StrFormat(",\"ratio\":%s,\"ratio_of\":%s", JsonNumber(*row.ratio),
                               JsonString(row.ratio_of));
      }
      if (row.target) out += absl::StrFormat(",\"target\":%s", JsonNumber(*row.target));
      if (row.met) {
        out += absl::StrFormat(",\"met\":%s", *row.met ? "true" : "false");
        if (!*row.met)
          out += absl::StrFormat(",\"missed_by_pct\":%s", JsonNumber(row.missed_by_pct));
      }
      if (!row.note.empty()) out += absl::StrFormat(",\"note\":%s", JsonString(row.note));
      out += "}";
    }
    out += "],\"notes\":[";
    for (size_t i = 0; i < report.notes.size(); ++i) {
      out += absl::StrFormat("%s%s", i ? "," : "", JsonString(report.notes[i]));
    }
    out += "]}";
  }
  return out + "]}\n";
}

}  // namespace kestrel::bench
