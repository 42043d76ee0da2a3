#include "control_records.h"

#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "shared/capture_settings.h"
#include "shared/event_types.h"

namespace kestrel::engine {
namespace {

absl::Status WrongShape(std::string_view what, const kestrel_record_header& h) {
  return absl::InvalidArgumentError(
      absl::StrFormat("not a %s record: type %u with %u parameters", what, h.type, h.nparams));
}

}  // namespace

absl::StatusOr<SettingsChanged> DecodeSettingsChanged(const RecordView& record) {
  const kestrel_record_header& h = record.header();
  if (h.type != KESTREL_EVT_SETTINGS_CHANGED || h.nparams != KESTREL_SETTINGS_CHANGED_NPARAMS) {
    return WrongShape("settings_changed", h);
  }
  absl::StatusOr<uint16_t> what = record.Integer<uint16_t>(0);
  absl::StatusOr<uint64_t> old_gen = record.Integer<uint64_t>(1);
  absl::StatusOr<uint64_t> new_gen = record.Integer<uint64_t>(2);
  for (const absl::Status& s : {what.status(), old_gen.status(), new_gen.status()}) {
    if (!s.ok()) return s;
  }
  return SettingsChanged{*what, *old_gen, *new_gen};
}

std::string ChangedNames(uint16_t what) {
  std::vector<std::string> names;
  if (what & KESTREL_CHANGED_SETTINGS) names.push_back("settings");
  if (what & KESTREL_CHANGED_SYSCALLS) names.push_back("syscalls");
  if (what & KESTREL_CHANGED_DROP_CLASSES) names.push_back("drop_classes");
  if (what & KESTREL_CHANGED_OMITTED) names.push_back("omitted_params");
  return names.empty() ? std::string("none") : absl::StrJoin(names, ",");
}

absl::StatusOr<SamplingMarker> DecodeSamplingMarker(const RecordView& record) {
  const kestrel_record_header& h = record.header();
  if ((h.type != KESTREL_EVT_DROP_START && h.type != KESTREL_EVT_DROP_STOP) ||
      h.nparams != KESTREL_SAMPLING_MARKER_NPARAMS) {
    return WrongShape("drop marker", h);
  }
  absl::StatusOr<uint32_t> ratio = record.Integer<uint32_t>(0);
  if (!ratio.ok()) return ratio.status();
  absl::StatusOr<uint64_t> generation = record.Integer<uint64_t>(1);
  if (!generation.ok()) return generation.status();
  return SamplingMarker{h.type == KESTREL_EVT_DROP_START, *ratio, *generation};
}

}  // namespace kestrel::engine
