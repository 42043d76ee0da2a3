#include "engine/alerts/append_output.h"

#include <algorithm>

#include "absl/strings/str_cat.h"

namespace kestrel::engine::alerts {
namespace {

std::string_view Trimmed(std::string_view s) {
  const size_t first = s.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  return s.substr(first, s.find_last_not_of(" \t\r\n") - first + 1);
}

bool GetsSuggested(const AppendOutput& entry, std::string_view source) {
  return entry.suggested_output && source == kSuggestedFieldsSource;
}

}  // namespace

std::string SuggestedFieldFormat(std::string_view field) {
  std::string name(field);
  std::replace(name.begin(), name.end(), '.', '_');
  name += "=%";
  name += field;
  return name;
}

bool AppendOutputMatches(const AppendOutput& entry, std::string_view rule, std::string_view source,
                         const std::vector<std::string>& tags) {
  if (!entry.source.empty() && entry.source != source) return false;
  if (!entry.rule.empty() && entry.rule != rule) return false;
  return std::all_of(entry.tags.begin(), entry.tags.end(), [&](const std::string& t) {
    return std::find(tags.begin(), tags.end(), t) != tags.end();
  });
}

AppendedOutput ApplyAppendOutput(const std::vector<AppendOutput>& entries, std::string_view rule,
                                 std::string_view source, const std::vector<std::string>& tags,
                                 std::string_view output) {
  AppendedOutput out;
  out.output = std::string(Trimmed(output));
  for (const AppendOutput& entry : entries) {
    if (!AppendOutputMatches(entry, rule, source, tags)) continue;
    if (!entry.extra_output.empty()) out.output += " " + entry.extra_output;
    if (GetsSuggested(entry, source)) {
      for (std::string_view field : kSuggestedFields) {
        out.output += " " + SuggestedFieldFormat(field);
      }
    }
    for (const auto& extra : entry.extra_fields) {
      const std::string& key = extra.first;
      const std::string& format = extra.second;
      ExtraField field{key, format.empty() ? std::string() : format, format.empty()};
      // Not a structured binding: clang 14 cannot capture one.
      auto same = std::find_if(out.extra_fields.begin(), out.extra_fields.end(),
                               [&key](const ExtraField& f) { return f.key == key; });
      if (same != out.extra_fields.end()) out.extra_fields.erase(same);
      out.extra_fields.push_back(std::move(field));
    }
  }
  return out;
}

absl::Status CheckAppendOutput(const std::vector<AppendOutput>& entries,
                               const filter::FieldResolver& fields) {
  for (size_t i = 0; i < entries.size(); ++i) {
    const AppendOutput& entry = entries[i];
    if (!entry.source.empty() && entry.source != kSuggestedFieldsSource) continue;
    const std::string where = absl::StrCat("append_output[", i, "]");
    if (absl::StatusOr<OutputFormat> f = OutputFormat::Compile(entry.extra_output, fields);
        !f.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat(where, ".extra_output: ", f.status().message()));
    }
    for (const auto& [key, format] : entry.extra_fields) {
      absl::StatusOr<OutputFormat> f =
          OutputFormat::Compile("", fields, {ExtraField{key, format, format.empty()}});
      if (!f.ok()) {
        return absl::InvalidArgumentError(
            absl::StrCat(where, ".extra_fields: ", f.status().message()));
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace kestrel::engine::alerts
