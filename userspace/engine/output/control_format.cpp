#include "control_format.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "engine/decode/control_records.h"
#include "engine/decode/drop_marker.h"
#include "escape.h"
#include "shared/event_types.h"
#include "wall_time.h"

namespace kestrel::engine {
namespace {

void FormatSettingsChanged(const SettingsChanged& c, OutputStyle style, uint64_t wall_ns,
                           uint16_t cpu, std::string& line) {
  const std::string what = ChangedNames(c.what);
  if (style == OutputStyle::kJson) {
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

void FormatSamplingMarker(const SamplingMarker& m, OutputStyle style, uint64_t wall_ns,
                          uint16_t cpu, std::string& line) {
  const char* event = m.start ? "drop_start" : "drop_stop";
  if (style == OutputStyle::kJson) {
    absl::StrAppend(&line, "{\"ts\":", wall_ns, ",\"cpu\":", cpu, ",\"event\":\"", event,
                    "\",\"sampling_ratio\":", m.sampling_ratio, ",\"generation\":", m.generation,
                    "}");
    return;
  }
  AppendWallTime(line, wall_ns);
  absl::StrAppendFormat(&line, " cpu %u %s: keeping 1 in %u droppable syscalls (generation %u)",
                        cpu, event, m.sampling_ratio, m.generation);
}

// A marker says the stream has a hole just before this point.
absl::Status FormatDropMarker(const RecordView& view, OutputStyle style, uint64_t boot_time_ns,
                              std::string& line) {
  absl::StatusOr<DropMarker> m = DecodeDropMarker(view);
  if (!m.ok()) return m.status();
  const uint64_t wall_ns = boot_time_ns + view.header().ts_ns;
  if (style == OutputStyle::kJson) {
    absl::StrAppend(&line, "{\"ts\":", wall_ns, ",\"drop\":{\"cpu\":", m->cpu,
                    ",\"lost\":", m->lost, ",\"first_loss_ts\":", boot_time_ns + m->first_loss_ns,
                    ",\"last_loss_ts\":", boot_time_ns + m->last_loss_ns,
                    ",\"lost_total\":", m->lost_total, "}}");
    return absl::OkStatus();
  }
  AppendWallTime(line, wall_ns);
  absl::StrAppend(&line, " --- DROPPED ", m->lost, " record(s) on cpu ", m->cpu, " from ");
  AppendWallTime(line, boot_time_ns + m->first_loss_ns);
  line.append(" to ");
  AppendWallTime(line, boot_time_ns + m->last_loss_ns);
  absl::StrAppend(&line, " (", m->lost_total, " on this cpu in total)");
  return absl::OkStatus();
}

}  // namespace

bool IsControlRecord(const RecordView& record) {
  switch (record.header().type) {
    case KESTREL_EVT_SETTINGS_CHANGED:
    case KESTREL_EVT_DROP_START:
    case KESTREL_EVT_DROP_STOP:
      return true;
    default:
      return IsDropMarker(record);
  }
}

absl::Status FormatControlRecord(const RecordView& record, OutputStyle style, uint64_t boot_time_ns,
                                 std::string& line) {
  const kestrel_record_header& h = record.header();
  const uint64_t wall_ns = boot_time_ns + h.ts_ns;
  line.clear();
  if (IsDropMarker(record)) return FormatDropMarker(record, style, boot_time_ns, line);
  switch (h.type) {
    case KESTREL_EVT_SETTINGS_CHANGED: {
      absl::StatusOr<SettingsChanged> c = DecodeSettingsChanged(record);
      if (!c.ok()) return c.status();
      FormatSettingsChanged(*c, style, wall_ns, h.cpu, line);
      return absl::OkStatus();
    }
    case KESTREL_EVT_DROP_START:
    case KESTREL_EVT_DROP_STOP: {
      absl::StatusOr<SamplingMarker> m = DecodeSamplingMarker(record);
      if (!m.ok()) return m.status();
      FormatSamplingMarker(*m, style, wall_ns, h.cpu, line);
      return absl::OkStatus();
    }
    default:
      return absl::InvalidArgumentError(absl::StrFormat("unknown record type %u", h.type));
  }
}

}  // namespace kestrel::engine
