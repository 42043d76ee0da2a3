#include "run_probe_settings.h"

#include "absl/strings/str_cat.h"

namespace kestrel::cli {
namespace {

// A parameter named through evt.arg.NAME, evt.arg[NAME] or evt.rawarg.
bool IsParam(const engine::filter::FieldRef& field, std::string_view param) {
  for (std::string_view base : {"evt.arg", "evt.rawarg"}) {
    if (field.name == base && field.index == param) return true;
    if (field.name == std::string(base) + "." + std::string(param)) return true;
  }
  return false;
}

}  // namespace

absl::StatusOr<engine::filter::FieldSpec> FieldNeedsRecorder::Resolve(
    const engine::filter::FieldRef& field) const {
  absl::StatusOr<engine::filter::FieldSpec> spec = fields_.Resolve(field);
  if (!spec.ok()) return spec;
  if (field.name == "evt.buffer" || IsParam(field, "data")) needs_.buffers = true;
  if (field.name == "evt.res" || field.name == "evt.rawres" || field.name == "evt.failed" ||
      IsParam(field, "res")) {
    needs_.result = true;
  }
  return spec;
}

kestrel_capture_settings SettingsForNeeds(kestrel_capture_settings settings,
                                          const FieldNeeds& needs) {
  settings.capture_io_data = needs.buffers ? 1 : 0;
  settings.snaplen = needs.buffers ? kRuleBufferSnaplen : 0;
  settings.drop_failed = needs.result ? 0 : 1;
  return settings;
}

std::string DescribeNeeds(const kestrel_capture_settings& settings) {
  return absl::StrCat("snaplen ", settings.snaplen, ", io data ",
                      settings.capture_io_data ? "on" : "off", ", drop_failed ",
                      settings.drop_failed ? "on" : "off");
}

}  // namespace kestrel::cli
