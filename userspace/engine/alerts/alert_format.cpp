#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <ctime>
#include <string_view>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "engine/alerts/alert.h"
#include "engine/filter/scanner.h"
#include "engine/output/escape.h"
#include "engine/output/wall_time.h"

namespace kestrel::engine::alerts {
namespace {

using filter::Sv;

// "-12", "7" or "12.5": a number JSON takes bare (doubles print one decimal).
bool IsDecimal(std::string_view s) {
  if (!s.empty() && s[0] == '-') s.remove_prefix(1);
  const auto digits = [](std::string_view d) {
    return !d.empty() && std::all_of(d.begin(), d.end(), [](char c) {
      return std::isdigit(static_cast<unsigned char>(c));
    });
  };
  const size_t dot = s.find('.');
  if (dot == std::string_view::npos) return digits(s);
  return digits(s.substr(0, dot)) && digits(s.substr(dot + 1));
}

void AppendFieldValue(std::string& out, const OutputField& f) {
  if (!f.value) {
    out.append("null");
    return;
  }
  const std::string& v = *f.value;
  const bool bare = (f.kind == FieldJsonKind::kNumber && IsDecimal(v)) ||
                    (f.kind == FieldJsonKind::kBool && (v == "true" || v == "false"));
  if (bare) {
    out.append(v);
  } else {
    AppendJsonString(out, v);
  }
}

}  // namespace

std::string Rfc3339Utc(uint64_t time_ns) {
  const time_t secs = static_cast<time_t>(time_ns / 1000000000);
  struct tm tm;
  gmtime_r(&secs, &tm);
  return absl::StrFormat("%04d-%02d-%02dT%02d:%02d:%02d.%09uZ", tm.tm_year + 1900, tm.tm_mon + 1,
                         tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
                         static_cast<unsigned>(time_ns % 1000000000));
}

namespace {

std::string TextLine(const Alert& alert, std::string_view message, bool time_format_iso_8601) {
  std::string out;
  if (time_format_iso_8601) {
    out = Rfc3339Utc(alert.time_ns);
  } else {
    AppendWallTime(out, alert.time_ns);
  }
  absl::StrAppend(&out, ": ", Sv(rules::PriorityName(alert.priority)), " ", Sv(message));
  return out;
}

}  // namespace

std::string AlertToText(const Alert& alert, bool time_format_iso_8601) {
  return TextLine(alert, alert.output, time_format_iso_8601);
}

std::string AlertToJson(const Alert& alert, const JsonOptions& options) {
  // Keys in byte order, as Falco's JSON library writes an object.
  const std::string_view message = alert.raw_output.empty() ? alert.output : alert.raw_output;
  std::string out = "{\"hostname\":";
  AppendJsonString(out, alert.hostname);
  if (options.include_message) {
    out.append(",\"message\":");
    AppendJsonString(out, message);
  }
  if (options.include_output) {
    out.append(",\"output\":");
    AppendJsonString(out, TextLine(alert, message, options.time_format_iso_8601));
  }
  if (options.include_output_fields) {
    // evt.time (ns since the epoch) is always there, as Falco's prefix
    // adds it, and wins over a rule's own %evt.time text.
    std::vector<const OutputField*> sorted;
    for (const OutputField& f : alert.output_fields) {
      if (f.name == "evt.time") continue;
      const bool repeat = std::any_of(sorted.begin(), sorted.end(),
                                      [&](const OutputField* s) { return s->name == f.name; });
      if (!repeat) sorted.push_back(&f);
    }
    const OutputField time{"evt.time", std::to_string(alert.time_ns), FieldJsonKind::kNumber};
    sorted.push_back(&time);
    std::sort(sorted.begin(), sorted.end(),
              [](const OutputField* a, const OutputField* b) { return a->name < b->name; });
    out.append(",\"output_fields\":{");
    for (size_t i = 0; i < sorted.size(); ++i) {
      if (i) out.push_back(',');
      AppendJsonString(out, sorted[i]->name);
      out.push_back(':');
      AppendFieldValue(out, *sorted[i]);
    }
    out.push_back('}');
  }
  out.append(",\"priority\":");
  AppendJsonString(out, rules::PriorityName(alert.priority));
  out.append(",\"rule\":");
  AppendJsonString(out, alert.rule);
  out.append(",\"source\":");
  AppendJsonString(out, alert.source);
  if (options.include_tags) {
    std::vector<std::string_view> tags(alert.tags.begin(), alert.tags.end());
    std::sort(tags.begin(), tags.end());
    tags.erase(std::unique(tags.begin(), tags.end()), tags.end());
    out.append(",\"tags\":[");
    for (size_t i = 0; i < tags.size(); ++i) {
      if (i) out.push_back(',');
      AppendJsonString(out, tags[i]);
    }
    out.push_back(']');
  }
  out.append(",\"time\":");
  AppendJsonString(out, Rfc3339Utc(alert.time_ns));
  out.push_back('}');
  return out;
}

std::optional<std::string> HostnameOverride() {
  const char* env = std::getenv("FALCO_HOSTNAME");
  if (env == nullptr) return std::nullopt;
  return std::string(env);
}

std::string LocalHostname() {
  if (std::optional<std::string> name = HostnameOverride()) return *std::move(name);
  char name[256] = {};
  if (gethostname(name, sizeof(name) - 1) != 0) return {};
  return name;
}

}  // namespace kestrel::engine::alerts
