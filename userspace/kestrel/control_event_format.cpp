#include "control_event_format.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "engine/control_records.h"
#include "shared/event_types.h"
#include "text_format.h"

namespace kestrel::cli {
namespace {

void FormatSettingsChanged(const engine::SettingsChanged& c, bool json, uint64_t wall_ns,
                           uint16_t cpu, std::string& line) {
  const std::string what = engine::ChangedNames(c.what);
  if (json) {
    absl::StrAppend(&line, "{\"ts\":", wall_ns, ",\"cpu\":", cpu,
                    ",\"event\":\"settings_changed\",\"what\":");
    AppendJsonString(line, what);
    absl::StrAppend(&line, ",\"old_generation\":", c.old_generation,
                    ",\"new_generation\":", c.new_generation, "}");
    return;
  }
  AppendWallTime(line, wall_ns);
  absl::StrAppendFormat(&line, " settings_changed generation %u -> %u (%s)", c.old_generation,
                        c.new_generation, what);
}

void FormatSamplingMarker(const engine::SamplingMarker& m, bool json, uint64_t wall_ns,
                          uint16_t cpu, std::string& line) {
  const char* event = m.start ? "drop_start" : "drop_stop";
  if (json) {
    absl::StrAppend(&line, "{\"ts\":", wall_ns, ",\"cpu\":", cpu, ",\"event\":\"", event,
                    "\",\"sampling_ratio\":", m.sampling_ratio, ",\"generation\":", m.generation,
                    "}");
    return;
  }
  AppendWallTime(line, wall_ns);
  absl::StrAppendFormat(&line, " cpu %u %s: keeping 1 in %u droppable syscalls (generation %u)",
                        cpu, event, m.sampling_ratio, m.generation);
}

}  // namespace

absl::Status FormatControlRecord(const engine::RecordView& record, bool json, uint64_t boot_time_ns,
                                 std::string& line) {
  const kestrel_record_header& h = record.header();
  const uint64_t wall_ns = boot_time_ns + h.ts_ns;
  line.clear();
  switch (h.type) {
    case KESTREL_EVT_SETTINGS_CHANGED: {
      absl::StatusOr<engine::SettingsChanged> c = engine::DecodeSettingsChanged(record);
      if (!c.ok()) return c.status();
      FormatSettingsChanged(*c, json, wall_ns, h.cpu, line);
      return absl::OkStatus();
    }
    case KESTREL_EVT_DROP_START:
    case KESTREL_EVT_DROP_STOP: {
      absl::StatusOr<engine::SamplingMarker> m = engine::DecodeSamplingMarker(record);
      if (!m.ok()) return m.status();
      FormatSamplingMarker(*m, json, wall_ns, h.cpu, line);
      return absl::OkStatus();
    }
    default:
      return absl::InvalidArgumentError(absl::StrFormat("unknown record type %u", h.type));
  }
}

}  // namespace kestrel::cli
