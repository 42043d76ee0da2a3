// append_output (falco.yaml): text and output_fields added to the outputs
// of the rules an entry matches, applied when the rules' outputs compile.
#ifndef KESTREL_ENGINE_ALERTS_APPEND_OUTPUT_H_
#define KESTREL_ENGINE_ALERTS_APPEND_OUTPUT_H_

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "engine/alerts/output_format.h"
#include "engine/filter/field_binding.h"

namespace kestrel::engine::alerts {

// One entry. It matches a rule when every one of rule, source and tags it
// gives does (none given: every rule).
struct AppendOutput {
  std::string rule;
  std::string source;
  std::vector<std::string> tags;  // the rule has every one
  std::string extra_output;       // appended to the output, after a space
  // output_fields only: a field's name (`evt.hostname`: the field's typed
  // value), or a name and a format (`home: "${HOME}"`, `user: "%user.name"`:
  // the format rendered as text). A name with an empty format is a field's
  // name here: config parsing leaves `name: ""` out, as Falco does.
  std::vector<std::pair<std::string, std::string>> extra_fields;
  // The container source's suggested fields, appended as Falco appends
  // them: ` container_id=%container.id` and so on (kSuggestedFields).
  bool suggested_output = false;
};

// The fields the container source suggests for every syscall rule's output
// (the container plugin's, in its order; Kestrel's are built in).
inline constexpr std::string_view kSuggestedFields[] = {
    "container.id",        "container.name", "container.image.repository",
    "container.image.tag", "k8s.pod.name",   "k8s.ns.name",
};

// The source whose rules get the suggested fields.
inline constexpr std::string_view kSuggestedFieldsSource = "syscall";

// `container_id=%container.id`: the field's name with '.' as '_', '=', then
// the field.
std::string SuggestedFieldFormat(std::string_view field);

bool AppendOutputMatches(const AppendOutput& entry, std::string_view rule, std::string_view source,
                         const std::vector<std::string>& tags);

// A rule's output with what the matching entries add, in the entries'
// order (each entry's extra_output, then its suggested fields, each after a
// space), and the extra fields they give (a later entry's key wins).
struct AppendedOutput {
  std::string output;
  std::vector<ExtraField> extra_fields;
};
AppendedOutput ApplyAppendOutput(const std::vector<AppendOutput>& entries, std::string_view rule,
                                 std::string_view source, const std::vector<std::string>& tags,
                                 std::string_view output);

// Compiles each entry's extra_output and extra fields alone against
// `fields` (entries for another source than syscall are not checked): an
// error names the entry, `append_output[N]` counted from 0, and the part.
absl::Status CheckAppendOutput(const std::vector<AppendOutput>& entries,
                               const filter::FieldResolver& fields);

}  // namespace kestrel::engine::alerts

#endif  // KESTREL_ENGINE_ALERTS_APPEND_OUTPUT_H_
