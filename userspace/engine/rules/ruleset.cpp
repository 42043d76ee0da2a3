// Ruleset: matching per event and the enable/priority switches. Loading is
// in loader.cpp.
#include "engine/rules/ruleset.h"

#include <algorithm>

namespace kestrel::engine::rules {

Ruleset::Ruleset() : program_(std::make_unique<filter::FilterProgram>()) {}
Ruleset::~Ruleset() = default;

absl::StatusOr<std::unique_ptr<Ruleset>> Ruleset::Load(const std::vector<std::string>&,
                                                       const LoadOptions&,
                                                       const filter::FieldResolver&,
                                                       std::vector<Diagnostic>*) {
  return absl::UnimplementedError("rules loading is not written yet");
}

absl::StatusOr<std::unique_ptr<Ruleset>> Ruleset::LoadText(std::string_view, std::string_view,
                                                           const LoadOptions&,
                                                           const filter::FieldResolver&,
                                                           std::vector<Diagnostic>*) {
  return absl::UnimplementedError("rules loading is not written yet");
}

void Ruleset::SetEnabledByName(std::string_view, bool) {}
void Ruleset::SetEnabledByTag(std::string_view, bool) {}
void Ruleset::SetMinimumPriority(Priority p) { minimum_priority_ = p; }
SyscallNeeds Ruleset::Syscalls() const { return {}; }
void Ruleset::Evaluate(uint32_t, filter::FieldReader&, bool, absl::FunctionRef<void(const Rule&)>) {
}
void Ruleset::Reindex() {}

}  // namespace kestrel::engine::rules
