// An alert, and the two ways Falco writes one: its text line and its JSON
// object, so tools that read Falco's alerts (falcosidekick, SIEM pipelines)
// read Kestrel's unchanged.
#ifndef KESTREL_ENGINE_ALERTS_ALERT_H_
#define KESTREL_ENGINE_ALERTS_ALERT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/alerts/output_field.h"
#include "engine/rules/priority.h"

namespace kestrel::engine::alerts {

struct Alert {
  uint64_t time_ns = 0;  // the event's time, ns since the epoch
  std::string rule;
  rules::Priority priority = rules::Priority::kWarning;
  std::string source = "syscall";
  // The rule's output rendered for the event (OutputFormat::Render's text):
  // already escaped, printable ASCII apart from the rule's own literal text.
  // The text line (and so a terminal) gets this one.
  std::string output;
  // The same with the values as they are (Render's `raw`): what the JSON
  // `output` and `message` hold, escaped once by the JSON writer, invalid
  // UTF-8 as U+FFFD. Empty: `output` stands for it (an alert whose text
  // holds nothing from a traced process).
  std::string raw_output;
  OutputFields output_fields;
  std::vector<std::string> tags;
  std::string hostname;
};

// Falco's json_include_* options.
struct JsonOptions {
  bool include_output = true;         // json_include_output_property
  bool include_tags = true;           // json_include_tags_property
  bool include_output_fields = true;  // json_include_output_fields_property
  bool include_message = false;       // json_include_message_property: the output alone
  bool time_format_iso_8601 = false;  // for the text line in `output`
};

// "HH:MM:SS.nnnnnnnnn: Priority output" with the time in local time (Falco's
// evt.time), no newline. With Falco's time_format_iso_8601 the time is
// evt.time.iso8601's instead: "2024-01-02T03:04:05.123456789Z".
std::string AlertToText(const Alert& alert, bool time_format_iso_8601 = false);

// One line of JSON (no newline) with Falco's keys, sorted as Falco writes
// them: hostname, message (the rule's output without the time and
// priority, when asked for), output (the text line, with raw_output's
// values as they are rather than escaped, as Falco's), output_fields (evt.time as ns
// since the epoch, plus the rule's fields: numbers and booleans bare,
// missing values null), priority, rule, source, tags (sorted, unique),
// time (RFC 3339 in UTC with nanoseconds: 2024-01-02T03:04:05.123456789Z).
// Valid JSON whatever bytes the fields hold.
std::string AlertToJson(const Alert& alert, const JsonOptions& options);

// The event time as the JSON `time` key writes it.
std::string Rfc3339Utc(uint64_t time_ns);

// This host's name, for Alert::hostname: $FALCO_HOSTNAME when set (as
// Falco), else gethostname's (empty if it fails).
std::string LocalHostname();

// $FALCO_HOSTNAME when it is set, else nothing: the name alerts carry
// whatever host or capture file the events come from.
std::optional<std::string> HostnameOverride();

}  // namespace kestrel::engine::alerts

#endif  // KESTREL_ENGINE_ALERTS_ALERT_H_
