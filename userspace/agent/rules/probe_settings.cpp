#include "agent/rules/probe_settings.h"

#include "absl/strings/str_cat.h"
#include "shared/control_block.h"

namespace kestrel::agent {
namespace {

// A parameter named through evt.arg.NAME, evt.arg[NAME] or evt.rawarg.
bool IsParam(const engine::filter::FieldRef& field, std::string_view param) {
  for (std::string_view base : {"evt.arg", "evt.rawarg"}) {
    if (field.name == base && field.index == param) return true;
    if (field.name == std::string(base) + "." + std::string(param)) return true;
  }
  return false;
}

// A parameter by position (evt.arg[5]): it may be the path.
bool IsParamByNumber(const engine::filter::FieldRef& field) {
  return (field.name == "evt.arg" || field.name == "evt.rawarg") && field.index &&
         !field.index->empty() && field.index->find_first_not_of("0123456789") == std::string::npos;
}

}  // namespace

absl::StatusOr<engine::filter::FieldSpec> FieldNeedsRecorder::Resolve(
    const engine::filter::FieldRef& field) const {
  absl::StatusOr<engine::filter::FieldSpec> spec = fields_.Resolve(field);
  if (!spec.ok()) return spec;
  if (field.name == "evt.buffer" || IsParam(field, "data")) needs_.buffers = true;
  if (IsParam(field, "path") || IsParamByNumber(field) || field.name == "evt.args") {
    needs_.open_paths = true;
  }
  return spec;
}

kestrel_capture_settings SettingsForNeeds(kestrel_capture_settings settings,
                                          const FieldNeeds& needs, uint32_t buffer_snaplen) {
  settings.capture_io_data = needs.buffers ? 1 : 0;
  settings.snaplen = needs.buffers ? buffer_snaplen : 0;
  settings.drop_failed = needs.result ? 0 : 1;
  return settings;
}

uint32_t OmittedParamsForNeeds(const FieldNeeds& needs, bool capture_files) {
  return needs.open_paths || capture_files ? 0 : KESTREL_OMIT_OPEN_PATH;
}

std::string DescribeNeeds(const kestrel_capture_settings& settings, uint32_t omitted_params) {
  return absl::StrCat("snaplen ", settings.snaplen, ", io data ",
                      settings.capture_io_data ? "on" : "off", ", drop_failed ",
                      settings.drop_failed ? "on" : "off", ", open paths ",
                      omitted_params & KESTREL_OMIT_OPEN_PATH ? "omitted" : "kept");
}

}  // namespace kestrel::agent
