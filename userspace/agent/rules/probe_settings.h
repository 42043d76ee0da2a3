// The probe settings `kestrel run` derives from its rules: what the rules
// read decides how much the probe copies and what it may skip.
#ifndef KESTREL_AGENT_RULES_PROBE_SETTINGS_H_
#define KESTREL_AGENT_RULES_PROBE_SETTINGS_H_

#include <cstdint>
#include <string>

#include "engine/filter/field_binding.h"
#include "shared/capture_settings.h"

namespace kestrel::agent {

// What the conditions compiled through a FieldNeedsRecorder read.
struct FieldNeeds {
  bool buffers = false;  // evt.buffer, evt.arg.data: I/O data must be copied
  bool result = false;   // failed calls matter: a rule can match one (run_rules.h)
  // evt.arg.path, evt.args or a parameter by number: the kernel-resolved
  // path of opened files may be read.
  bool open_paths = false;
};

// A FieldResolver that resolves through `fields` and notes what is asked
// for, so the rules loader's compile tells which probe settings it needs.
class FieldNeedsRecorder : public engine::filter::FieldResolver {
 public:
  explicit FieldNeedsRecorder(const engine::filter::FieldResolver& fields) : fields_(fields) {}
  absl::StatusOr<engine::filter::FieldSpec> Resolve(
      const engine::filter::FieldRef& field) const override;
  std::string Unfilled(const engine::filter::FieldRef& field) const override {
    return fields_.Unfilled(field);
  }
  bool ArrivesLate(const engine::filter::FieldRef& field) const override {
    return fields_.ArrivesLate(field);
  }
  bool NamesAddresses(const engine::filter::FieldRef& field) const override {
    return fields_.NamesAddresses(field);
  }
  std::string WhyAbsent(std::string_view name) const override { return fields_.WhyAbsent(name); }
  const FieldNeeds& needs() const { return needs_; }

 private:
  const engine::filter::FieldResolver& fields_;
  mutable FieldNeeds needs_;
};

// The bytes of I/O data kept per buffer when a rule reads one: Falco's
// default snaplen, enough for the prefixes rules compare.
inline constexpr uint32_t kRuleBufferSnaplen = 80;

// `settings` adjusted to `needs`: I/O data off and snaplen 0 when no rule
// reads a buffer (kRuleBufferSnaplen when one does), drop_failed on when no
// rule can match a failed call.
kestrel_capture_settings SettingsForNeeds(kestrel_capture_settings settings,
                                          const FieldNeeds& needs,
                                          uint32_t buffer_snaplen = kRuleBufferSnaplen);

// The parameters the probe may leave out (KESTREL_OMIT_* bits): the path of
// opened files unless `needs` reads it or `capture_files` are written (a
// capture file keeps whole records).
uint32_t OmittedParamsForNeeds(const FieldNeeds& needs, bool capture_files);

// One line for people: "snaplen 0, io data off, drop_failed on, open paths
// omitted".
std::string DescribeNeeds(const kestrel_capture_settings& settings, uint32_t omitted_params);

}  // namespace kestrel::agent

#endif  // KESTREL_AGENT_RULES_PROBE_SETTINGS_H_
